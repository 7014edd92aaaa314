import Testing

@testable import RowKitServe

@Suite struct RowRecordsTests {
    @Test func whenARowFileIsRead_thenEachRecordIsItsOwnTextByteForByte() throws {
        let file =
            #"RowKitSearch.load("co\"n","r-0",[[7,"A, \"b\" ]","x","rows/a.html"],[0,"[c]"],[3,"é\u003c/script>","","p.html#r-3",""]]);"#
        let records = try #require(RowRecords.records(inRowFile: file))
        #expect(
            records == [
                #"[7,"A, \"b\" ]","x","rows/a.html"]"#, #"[0,"[c]"]"#, #"[3,"é\u003c/script>","","p.html#r-3",""]"#,
            ])
        #expect(DetailLink.path(inRecord: records[0]) == "rows/a.html")
        #expect(DetailLink.path(inRecord: records[2]) == nil)
    }

    @Test func whenTheTextIsNotARowFile_thenNothingIsRead() {
        #expect(RowRecords.records(inRowFile: "var x = [1];") == nil)
        #expect(RowRecords.records(inRowFile: #"RowKitSearch.load("k","r-0",[[1,"unterminated"#) == nil)
    }

    @Test func whenTextIsWrittenAsJSON_thenItCannotCloseAScriptOrBreakALine() {
        #expect(JSONText.string("a\"b\\c\n</script>\u{2028}\u{1}") == #""a\"b\\c\n\u003c/script>\u2028\u0001""#)
    }
}
