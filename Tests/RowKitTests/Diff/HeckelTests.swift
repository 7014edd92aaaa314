import RowKit
import Testing

@Suite struct HeckelTests {
    /// The example of Heckel's paper (CACM 21(4), 1978), split on spaces.
    static let paperOld =
        "much writing is like snow , a mass of long words and phrases falls upon the relevant facts covering up the details ."
        .split(separator: " ").map(String.init)
    static let paperNew =
        "a mass of latin words falls upon the relevant facts like soft snow , covering up the details ."
        .split(separator: " ").map(String.init)

    @Test func whenThePaperExampleIsDiffed_thenItDeletesAndInsertsThePapersWords() {
        let result = Heckel.diff(old: Self.paperOld, new: Self.paperNew)
        #expect(result.deletes == [0, 1, 2, 9, 11, 12])  // much writing is long and phrases
        #expect(result.inserts == [3, 11])  // latin soft
    }

    @Test func whenThePaperExampleIsDiffed_thenRepeatedWordsAreMatchedThroughTheirNeighbours() {
        // "the" occurs twice in both texts; passes 4 and 5 match both occurrences.
        #expect(Self.paperOld.filter { $0 == "the" }.count == 2)
        let result = Heckel.diff(old: Self.paperOld, new: Self.paperNew)
        #expect(result.oldPositions[7] == 15)  // "the relevant facts"
        #expect(result.oldPositions[16] == 20)  // "the details"
    }

    @Test func whenThePaperExampleIsDiffed_thenOnlyTheBlockOutOfOrderMoves() {
        let result = Heckel.diff(old: Self.paperOld, new: Self.paperNew)
        // "a mass of … facts" keeps its order with "covering up the details ."; "like", "snow" and ","
        // are the smaller block, so they are the moves.
        #expect(result.moves.map { Self.paperOld[$0.from] } == ["like", "snow", ","])
        #expect(result.moves.allSatisfy { Self.paperOld[$0.from] == Self.paperNew[$0.to] })
    }

    @Test func whenSequencesAreEqual_thenNothingChanges() {
        let words = ["a", "b", "a", "c", "a"]
        let result = Heckel.diff(old: words, new: words)
        #expect(result.deletes.isEmpty && result.inserts.isEmpty && result.moves.isEmpty)
        #expect(result.oldPositions == [0, 1, 2, 3, 4])
    }

    @Test func whenARepeatedSymbolStartsBothSequences_thenTheStartMatchesIt() {
        // No symbol is unique; the start and end of the sequences anchor passes 4 and 5.
        let result = Heckel.diff(old: ["x", "x", "y", "y"], new: ["x", "y", "y"])
        #expect(result.oldPositions == [0, 2, 3])
        #expect(result.deletes == [1])
        #expect(result.inserts.isEmpty && result.moves.isEmpty)
    }

    @Test func whenOneSequenceIsEmpty_thenEverythingIsInsertedOrDeleted() {
        #expect(Heckel.diff(old: [Int](), new: [1, 2]).inserts == [0, 1])
        #expect(Heckel.diff(old: [1, 1], new: [Int]()).deletes == [0, 1])
    }
}
