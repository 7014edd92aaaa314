import Foundation
import RowKitHTML
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

    @Test func whenARowGroupIsCutInParts_thenEachRowIsReadFromItsPart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowrecords-\(UUID().uuidString)")
        let search = folder.appendingPathComponent("search")
        try FileManager.default.createDirectory(at: search, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [
            "r-0": #"RowKitSearch.load("","r-0",[[0,"row 1"],[0,"row 2"]]);"#,
            "r-1": #"RowKitSearch.load("","r-1",{"p":[0,2]});"#,
            "r-1-0": #"RowKitSearch.load("","r-1-0",[[0,"row 129"],[0,"row 130"]]);"#,
            "r-1-1": #"RowKitSearch.load("","r-1-1",[[0,"row 131, {\"p\":[9]}"]]);"#,
        ]
        for (name, text) in files {
            try Data((text + "\n").utf8).write(to: search.appendingPathComponent("\(name).js"))
        }
        var records = RowRecords(folder: folder.appendingPathComponent(""))
        #expect(records.record(1) == #"[0,"row 2"]"#)
        #expect(records.record(128) == #"[0,"row 129"]"#)
        #expect(records.record(129) == #"[0,"row 130"]"#)
        #expect(records.record(130) == #"[0,"row 131, {\"p\":[9]}"]"#)
        #expect(records.record(131) == nil)
        #expect(records.record(300) == nil)
        #expect(RowRecords.partStarts(inGroupFile: files["r-1"]! + "\n") == [0, 2])
        #expect(RowRecords.partStarts(inGroupFile: files["r-1-1"]! + "\n") == nil)
    }

    @Test func whenTheRootSaysHowManyRowsAFileHolds_thenRowsAreFoundInFilesOfThatMany() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowrecords-\(UUID().uuidString)")
        let search = folder.appendingPathComponent("search")
        try FileManager.default.createDirectory(at: search, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = #"RowKitSearch.load("k,{\"n\":9,\"r\":4","t-",{"n":600,"r":256,"k":["a"],"w":0});"#
        let files = [
            "t-": root,
            "r-0": #"RowKitSearch.load("","r-0",[[0,"row 1"]]);"#,
            "r-1": #"RowKitSearch.load("","r-1",[[0,"row 257"],[0,"row 258"]]);"#,
        ]
        for (name, text) in files {
            try Data((text + "\n").utf8).write(to: search.appendingPathComponent("\(name).js"))
        }
        var records = RowRecords(folder: folder.appendingPathComponent(""))
        #expect(records.record(0) == #"[0,"row 1"]"#)
        #expect(records.record(128) == nil)
        #expect(records.record(256) == #"[0,"row 257"]"#)
        #expect(records.record(257) == #"[0,"row 258"]"#)
        #expect(SearchRowGroupSize.rowsPerFile(inRootFile: root) == 256)
        #expect(SearchRowGroupSize.rowsPerFile(inRootFile: #"RowKitSearch.load("","t-",{"n":5});"#) == nil)
        #expect(SearchRowGroupSize.rowsPerFile(inRootFile: #"RowKitSearch.load("","t-",{"n":5,"r":0});"#) == nil)
        #expect(SearchRowGroupSize.rowsPerFile(inRootFile: "var r = 1;") == nil)
    }

    @Test func whenTextIsWrittenAsJSON_thenItCannotCloseAScriptOrBreakALine() {
        #expect(JSONText.string("a\"b\\c\n</script>\u{2028}\u{1}") == #""a\"b\\c\n\u003c/script>\u2028\u0001""#)
    }
}
