// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import CastProtocol

/// One stream of an OFFER (`supportedStreams[]`).
public struct OfferedStream: Sendable, Equatable {
    public enum Kind: String, Sendable { case audio = "audio_source", video = "video_source" }
    public var index: Int
    public var kind: Kind
    public var codecName: String
    public var payloadType: UInt8
    public var ssrc: UInt32
    /// The end-to-end delay the receiver plays out at, in milliseconds.
    public var targetDelayMs: Int
    public var aesKey: [UInt8]
    public var aesIvMask: [UInt8]
    /// RTP clock rate (`timeBase` "1/N").
    public var clockRate: Int
    /// Video: the largest picture and frame rate, the bit rate ceiling. Audio: channels, bit rate.
    public var width: Int? = nil
    public var height: Int? = nil
    public var maxFrameRate: Int? = nil
    public var bitRate: Int
    public var channels: Int? = nil
    /// Video: the codec's profile and level (H.264: "main", "4"), when the sender names them.
    public var profile: String? = nil
    public var level: String? = nil

    public init(
        index: Int, kind: Kind, codecName: String, payloadType: UInt8, ssrc: UInt32, targetDelayMs: Int, aesKey: [UInt8], aesIvMask: [UInt8],
        clockRate: Int, bitRate: Int
    ) {
        self.index = index
        self.kind = kind
        self.codecName = codecName
        self.payloadType = payloadType
        self.ssrc = ssrc
        self.targetDelayMs = targetDelayMs
        self.aesKey = aesKey
        self.aesIvMask = aesIvMask
        self.clockRate = clockRate
        self.bitRate = bitRate
    }

    var json: JSONValue {
        var o: [(String, JSONValue)] = [
            ("index", .int(Int64(index))), ("type", .string(kind.rawValue)), ("codecName", .string(codecName)),
            ("rtpProfile", "cast"), ("rtpPayloadType", .int(Int64(payloadType))), ("ssrc", .int(Int64(ssrc))),
            ("targetDelay", .int(Int64(targetDelayMs))), ("aesKey", .string(Hex.encode(aesKey))), ("aesIvMask", .string(Hex.encode(aesIvMask))),
            ("timeBase", .string("1/\(clockRate)")), ("receiverRtcpEventLog", false), ("rtpExtensions", ["adaptive_playout_delay"]),
        ]
        switch kind {
        case .video:
            o.append(("maxBitRate", .int(Int64(bitRate))))
            o.append(("maxFrameRate", .string("\(maxFrameRate ?? 30)")))
            o.append(("renderMode", "video"))
            if let width, let height { o.append(("resolutions", [["width": .int(Int64(width)), "height": .int(Int64(height))]])) }
            if let profile { o.append(("profile", .string(profile))) }
            if let level { o.append(("level", .string(level))) }
        case .audio:
            o.append(("bitRate", .int(Int64(bitRate))))
            o.append(("sampleRate", .int(Int64(clockRate))))
            o.append(("channels", .int(Int64(channels ?? 2))))
        }
        return .object(JSONObject(members: o))
    }

    init(json v: JSONValue) throws(CastStreamingError) {
        guard let index = v["index"]?.intValue, let kind = v["type"]?.stringValue.flatMap(Kind.init(rawValue:)),
            let codec = v["codecName"]?.stringValue, let ssrc = v["ssrc"]?.intValue, (0...Int(UInt32.max)).contains(ssrc)
        else { throw CastStreamingError("an offered stream lacks its index, type, codec or SSRC") }
        guard let key = v["aesKey"]?.stringValue.flatMap(Hex.decode), key.count == 16,
            let mask = v["aesIvMask"]?.stringValue.flatMap(Hex.decode), mask.count == 16
        else { throw CastStreamingError("offered stream \(index) has no 128-bit aesKey and aesIvMask") }
        let pt = v["rtpPayloadType"]?.intValue ?? 0
        guard (0...127).contains(pt) else { throw CastStreamingError("offered stream \(index) has RTP payload type \(pt)") }
        var rate = kind == .video ? CastStreamingIDs.videoClockRate : CastStreamingIDs.audioClockRate
        if let tb = v["timeBase"]?.stringValue, tb.hasPrefix("1/"), let r = Int(tb.dropFirst(2)), r > 0 { rate = r }
        self.init(
            index: index, kind: kind, codecName: codec.lowercased(), payloadType: UInt8(pt), ssrc: UInt32(ssrc),
            targetDelayMs: min(max(v["targetDelay"]?.intValue ?? 400, 1), 4000), aesKey: key, aesIvMask: mask, clockRate: rate,
            bitRate: v[kind == .video ? "maxBitRate" : "bitRate"]?.intValue ?? 0)
        let res = v["resolutions"]?.arrayValue?.first
        width = res?["width"]?.intValue
        height = res?["height"]?.intValue
        maxFrameRate = v["maxFrameRate"]?.stringValue.flatMap(Self.rate)
        channels = v["channels"]?.intValue
        profile = v["profile"]?.stringValue
        level = v["level"]?.stringValue
    }

    /// "30", "30000/1000" or "60000/1001" → whole frames a second.
    static func rate(_ s: String) -> Int? {
        let parts = s.split(separator: "/").compactMap { Double($0) }
        guard let n = parts.first, parts.count <= 2 else { return nil }
        let d = parts.count == 2 ? parts[1] : 1
        guard d > 0, n > 0 else { return nil }
        return max(1, Int((n / d).rounded()))
    }
}

/// `{"type": "OFFER", "seqNum": N, "offer": {"castMode": "mirroring", "supportedStreams": [...]}}`.
public struct StreamingOffer: Sendable, Equatable {
    public var seqNum: Int
    public var streams: [OfferedStream]
    public init(seqNum: Int, streams: [OfferedStream]) {
        self.seqNum = seqNum
        self.streams = streams
    }

    public var json: JSONValue {
        [
            "type": "OFFER", "seqNum": .int(Int64(seqNum)),
            "offer": ["castMode": "mirroring", "receiverGetStatus": false, "supportedStreams": .array(streams.map(\.json))],
        ]
    }

    public init(json v: JSONValue) throws(CastStreamingError) {
        guard v["type"]?.stringValue == "OFFER" else { throw CastStreamingError("not an OFFER") }
        guard let seq = v["seqNum"]?.intValue else { throw CastStreamingError("the OFFER has no seqNum") }
        guard let list = v["offer"]?["supportedStreams"]?.arrayValue else { throw CastStreamingError("the OFFER offers no streams") }
        var streams: [OfferedStream] = []
        for s in list { streams.append(try OfferedStream(json: s)) }
        self.init(seqNum: seq, streams: streams)
    }
}

/// The receiver's ANSWER: the UDP port to send to, which offered streams it takes (by index)
/// with its own SSRC for each, and its limits; or an error.
public struct StreamingAnswer: Sendable, Equatable {
    public var seqNum: Int
    public var udpPort: Int?
    public var sendIndexes: [Int]
    public var ssrcs: [UInt32]
    /// The receiver's video limits (`constraints.video`): picture, frame rate, bit rates.
    public var maxWidth: Int?
    public var maxHeight: Int?
    public var maxFrameRate: Int?
    public var minBitRate: Int?
    public var maxBitRate: Int?
    /// `result: "error"`: the receiver's description of why not.
    public var error: String?

    public init(seqNum: Int, udpPort: Int?, sendIndexes: [Int], ssrcs: [UInt32], error: String? = nil) {
        self.seqNum = seqNum
        self.udpPort = udpPort
        self.sendIndexes = sendIndexes
        self.ssrcs = ssrcs
        self.error = error
    }

    public var json: JSONValue {
        if let error {
            return ["type": "ANSWER", "seqNum": .int(Int64(seqNum)), "result": "error", "error": ["code": 1, "description": .string(error)]]
        }
        var video: [(String, JSONValue)] = []
        if let maxWidth, let maxHeight {
            video.append(("maxDimensions", ["width": .int(Int64(maxWidth)), "height": .int(Int64(maxHeight)), "frameRate": .string("\(maxFrameRate ?? 30)")]))
        }
        if let minBitRate { video.append(("minBitRate", .int(Int64(minBitRate)))) }
        if let maxBitRate { video.append(("maxBitRate", .int(Int64(maxBitRate)))) }
        var answer: [(String, JSONValue)] = [
            ("castMode", "mirroring"), ("sendIndexes", .array(sendIndexes.map { .int(Int64($0)) })), ("ssrcs", .array(ssrcs.map { .int(Int64($0)) })),
            ("constraints", ["video": .object(JSONObject(members: video))]),
        ]
        if let udpPort { answer.insert(("udpPort", .int(Int64(udpPort))), at: 1) }
        return ["type": "ANSWER", "seqNum": .int(Int64(seqNum)), "result": "ok", "answer": .object(JSONObject(members: answer))]
    }

    public init(json v: JSONValue) throws(CastStreamingError) {
        guard v["type"]?.stringValue == "ANSWER" else { throw CastStreamingError("not an ANSWER") }
        let seq = v["seqNum"]?.intValue ?? -1
        if v["result"]?.stringValue != "ok" {
            let said = v["error"]?["description"]?.stringValue ?? v["error"]?.stringValue ?? "no reason given"
            self.init(seqNum: seq, udpPort: nil, sendIndexes: [], ssrcs: [], error: said)
            return
        }
        guard let a = v["answer"] else { throw CastStreamingError("the ANSWER says ok but carries no answer") }
        let port = a["udpPort"]?.intValue.flatMap { (1...65535).contains($0) ? $0 : nil }
        let indexes = a["sendIndexes"]?.arrayValue?.compactMap(\.intValue) ?? []
        let ssrcs = a["ssrcs"]?.arrayValue?.compactMap { $0.intValue.flatMap { UInt32(exactly: $0) } } ?? []
        guard ssrcs.count == indexes.count else { throw CastStreamingError("the ANSWER names \(indexes.count) streams but \(ssrcs.count) SSRCs") }
        self.init(seqNum: seq, udpPort: port, sendIndexes: indexes, ssrcs: ssrcs)
        let video = a["constraints"]?["video"]
        maxWidth = video?["maxDimensions"]?["width"]?.intValue
        maxHeight = video?["maxDimensions"]?["height"]?.intValue
        maxFrameRate = video?["maxDimensions"]?["frameRate"]?.stringValue.flatMap(OfferedStream.rate)
        minBitRate = video?["minBitRate"]?.intValue
        maxBitRate = video?["maxBitRate"]?.intValue
    }
}

/// Hexadecimal as the OFFER writes keys (upper case; either case read).
enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in bytes { out += [digits[Int(b >> 4)], digits[Int(b & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ s: String) -> [UInt8]? {
        let u = Array(s.utf8)
        guard u.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 65...70: c - 55
            case 97...102: c - 87
            default: nil
            }
        }
        var out: [UInt8] = []
        for i in stride(from: 0, to: u.count, by: 2) {
            guard let hi = nibble(u[i]), let lo = nibble(u[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
        }
        return out
    }
}
