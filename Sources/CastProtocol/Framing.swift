// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
/// CASTV2 length framing: every message is a 4-byte big-endian body length followed by
/// a serialized `CastMessage` of 1 to 65,536 bytes.
public enum CastFraming {
    /// The largest body a frame may carry (Chromium's and Open Screen's limit).
    public static let maxBodyLength = 65_536
    /// The size of the length header.
    public static let headerLength = 4

    /// Prepends the length header to a body, refusing bodies the protocol does not allow.
    public static func frame(_ body: [UInt8]) throws(CastProtocolError) -> [UInt8] {
        guard !body.isEmpty else { throw .emptyFrame }
        guard body.count <= maxBodyLength else { throw .messageTooLarge(bytes: body.count) }
        var out = [UInt8]()
        out.reserveCapacity(headerLength + body.count)
        appendHeader(length: body.count, to: &out)
        out.append(contentsOf: body)
        return out
    }

    /// Appends the 4-byte big-endian length header of a body of `length` bytes.
    static func appendHeader(length: Int, to out: inout [UInt8]) {
        let n = UInt32(length)
        out.append(UInt8(truncatingIfNeeded: n >> 24))
        out.append(UInt8(truncatingIfNeeded: n >> 16))
        out.append(UInt8(truncatingIfNeeded: n >> 8))
        out.append(UInt8(truncatingIfNeeded: n))
    }
}

/// A streaming decoder for CASTV2 frames.
///
/// Feed it bytes as they arrive, split any way across reads, then take out complete
/// messages. It never allocates the size a header claims: it checks the limit first and
/// only ever holds the bytes it has actually been given. After an error the stream is
/// corrupt (there is no way to find the next frame boundary) and the decoder stays failed.
///
///     var decoder = CastFrameDecoder()
///     decoder.append(bytesFromSocket)
///     while let message = try decoder.nextMessage() { handle(message) }
public struct CastFrameDecoder: Sendable {
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var failure: CastProtocolError?

    public init() {}

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        guard failure == nil else { return }
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes read from the stream, from memory the caller holds (a NIO buffer's bytes).
    /// The generic `append` is not specialized for a caller in another module, and its first
    /// use makes the runtime look up the sequence's conformances.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        compact()
        guard let base = bytes.baseAddress else { return }
        buffer.append(contentsOf: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: bytes.count))
    }

    /// Drops what was consumed before growing, so the buffer stays about one frame long.
    private mutating func compact() {
        if readIndex > 0 && (readIndex >= 4096 || readIndex == buffer.count) {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }

    /// The next complete frame body, or nil when more bytes are needed.
    public mutating func nextFrame() throws(CastProtocolError) -> ArraySlice<UInt8>? {
        if let failure { throw failure }
        let available = buffer.count - readIndex
        guard available >= CastFraming.headerLength else { return nil }
        let length =
            UInt32(buffer[readIndex]) << 24 | UInt32(buffer[readIndex + 1]) << 16
            | UInt32(buffer[readIndex + 2]) << 8 | UInt32(buffer[readIndex + 3])
        if length == 0 { return try fail(.emptyFrame) }
        if length > UInt32(CastFraming.maxBodyLength) { return try fail(.frameTooLarge(length: length)) }
        let total = CastFraming.headerLength + Int(length)
        guard available >= total else { return nil }
        let start = readIndex + CastFraming.headerLength
        readIndex += total
        return buffer[start..<(start + Int(length))]
    }

    /// The next complete message, parsed and validated, or nil when more bytes are needed.
    public mutating func nextMessage() throws(CastProtocolError) -> CastMessage? {
        guard let body = try nextFrame() else { return nil }
        do {
            return try CastMessage(serializedBody: body)
        } catch {
            return try fail(error)
        }
    }

    /// Call when the stream has ended: a partial frame left over is an error.
    public func finish() throws(CastProtocolError) {
        if let failure { throw failure }
        let available = buffer.count - readIndex
        guard available > 0 else { return }
        if available < CastFraming.headerLength {
            throw .truncatedFrame(expected: CastFraming.headerLength, received: available)
        }
        let length =
            Int(buffer[readIndex]) << 24 | Int(buffer[readIndex + 1]) << 16
            | Int(buffer[readIndex + 2]) << 8 | Int(buffer[readIndex + 3])
        throw .truncatedFrame(expected: length, received: available - CastFraming.headerLength)
    }

    private mutating func fail<T>(_ error: CastProtocolError) throws(CastProtocolError) -> T {
        failure = error
        buffer = []
        readIndex = 0
        throw error
    }
}
