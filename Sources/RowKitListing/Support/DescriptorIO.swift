#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole reads and writes on a file descriptor: `read(2)`/`pread(2)` and `write(2)`/`pwrite(2)`
/// called again after a short transfer or `EINTR`, so that no caller loops over them itself.
package enum DescriptorIO {
    /// Reads into `buffer` until it is full or the file ends: from `offset` on with `pread(2)`,
    /// or from the descriptor's position with `read(2)` when `offset` is `nil`. Returns the bytes
    /// read (fewer than the buffer holds only at the end of the file), or `nil` with `errno` set
    /// when a read fails.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int? = nil)
        -> Int?
    {
        var count = 0
        while count < buffer.count {
            let start = buffer.baseAddress! + count
            let got =
                if let offset {
                    pread(descriptor, start, buffer.count - count, off_t(offset + count))
                } else {
                    systemRead(descriptor, start, buffer.count - count)
                }
            if got < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if got == 0 { break }
            count += got
        }
        return count
    }

    /// Writes all of `bytes`: at `offset` with `pwrite(2)`, or at the descriptor's position with
    /// `write(2)` when `offset` is `nil`. `false`, with `errno` set, when a write fails (a write
    /// that takes nothing fails with `EIO`).
    package static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int? = nil) -> Bool {
        var count = 0
        while count < bytes.count {
            let start = bytes.baseAddress! + count
            let written =
                if let offset {
                    pwrite(descriptor, start, bytes.count - count, off_t(offset + count))
                } else {
                    systemWrite(descriptor, start, bytes.count - count)
                }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            if written == 0 {
                errno = EIO
                return false
            }
            count += written
        }
        return true
    }
}

/// `read(2)`, named apart from ``DescriptorIO/read(_:into:at:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// `write(2)`, named apart from ``DescriptorIO/write(_:_:at:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
