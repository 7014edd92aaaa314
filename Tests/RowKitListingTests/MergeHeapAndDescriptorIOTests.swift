import Foundation
import Testing

@testable import RowKitListing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The two small helpers of the spilled runs: the merge's heap, and whole reads and writes.
@Suite struct MergeHeapAndDescriptorIOTests {
    @Test(arguments: 0..<20)
    func aHeapGivesBackWhatWasPushedLeastFirst(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let initial = (0..<Int.random(in: 0..<50, using: &random)).map { _ in Int.random(in: 0..<100, using: &random) }
        var heap = MergeHeap(initial, by: <)
        var model = initial
        for _ in 0..<300 {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let value = Int.random(in: 0..<100, using: &random)
                heap.push(value)
                model.append(value)
            case 1:
                let least = model.min()
                #expect(heap.popFirst() == least)
                if let least { model.remove(at: model.firstIndex(of: least)!) }
            default:
                guard let least = model.min() else { continue }
                let value = Int.random(in: 0..<100, using: &random)
                #expect(heap.first == least)
                heap.replaceFirst(with: value)
                model[model.firstIndex(of: least)!] = value
            }
            #expect(heap.first == model.min() && heap.isEmpty == model.isEmpty)
        }
    }

    @Test func wholeReadsAndWritesAtOffsetsAndAtTheEnd() throws {
        var template = Array("\(NSTemporaryDirectory())/rowkit-io-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(descriptor >= 0)
        _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
        defer { close(descriptor) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        #expect(bytes.withUnsafeBytes { DescriptorIO.write(descriptor, $0) })
        #expect(Array("end".utf8).withUnsafeBytes { DescriptorIO.write(descriptor, $0, at: 100_000) })
        var back = [UInt8](repeating: 0, count: 200_000)
        // A read past the end gives what there is.
        let got = back.withUnsafeMutableBytes { DescriptorIO.read(descriptor, into: $0, at: 0) }
        #expect(got == 100_003)
        #expect(Array(back[0..<100_000]) == bytes && Array(back[100_000..<100_003]) == Array("end".utf8))
        // From the descriptor's position, after a seek.
        _ = lseek(descriptor, 99_999, SEEK_SET)
        var tail = [UInt8](repeating: 0, count: 4)
        #expect(tail.withUnsafeMutableBytes { DescriptorIO.read(descriptor, into: $0) } == 4)
        #expect(tail == [bytes[99_999]] + Array("end".utf8))
        // A failed call says so.
        #expect(back.withUnsafeMutableBytes { DescriptorIO.read(-1, into: $0) } == nil)
        #expect(!bytes.withUnsafeBytes { DescriptorIO.write(-1, $0) })
    }
}
