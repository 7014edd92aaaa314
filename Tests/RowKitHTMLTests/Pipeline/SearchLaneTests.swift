import Foundation
import Testing

@testable import RowKitHTML

/// The search lane's queue: bounded by items and by the bytes of text they carry, run in order.
@Suite struct SearchLaneTests {
    final class Log: @unchecked Sendable {
        let lock = NSLock()
        var ran: [Int] = []
    }

    @Test func itemsCarryingLargeBodiesWaitForRoomAndRunInOrder() throws {
        let lane = SearchLane(threaded: true)
        defer { lane.stop() }
        let log = Log()
        let megabyte = 1 << 20
        var largest = 0
        for number in 0..<60 {
            try lane.submit(carrying: megabyte) {
                Thread.sleep(forTimeInterval: 0.002)
                log.lock.withLock { log.ran.append(number) }
            }
            largest = max(largest, lane.bytesQueued)
        }
        try lane.wait()
        #expect(log.ran == Array(0..<60))
        #expect(largest <= SearchLane.byteCapacity, "at most \(SearchLane.byteCapacity) bytes queued, not \(largest)")
        #expect(lane.bytesQueued == 0)
    }

    @Test func oneItemLargerThanTheBudgetIsQueuedAlone() throws {
        let lane = SearchLane(threaded: true)
        defer { lane.stop() }
        let log = Log()
        for number in 0..<3 {
            try lane.submit(carrying: 2 * SearchLane.byteCapacity) { log.lock.withLock { log.ran.append(number) } }
        }
        try lane.wait()
        #expect(log.ran == [0, 1, 2])
    }
}
