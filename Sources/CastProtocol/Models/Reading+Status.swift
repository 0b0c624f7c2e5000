// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
// The one-pass reader of the MEDIA_STATUS message. The readers of the models it carries are
// generated from their declarations (Models/Generated, scripts/gen-wire.py); this one stays
// written by hand because it decides, while reading, whether the message is a status at all.

extension MediaMessage {
    /// MEDIA_STATUS read in one pass. The `type` may come after `status` (senders that sort
    /// keys put it last), so `status` is read when it comes; nil when the message is of
    /// another type, which the tree path decodes.
    static func readStatus(_ r: inout JSONParser) throws(JSONParser.Failure) -> MediaMessage? {
        var isStatus: Bool?
        var requestId: Int?
        var status: [MediaStatus]?
        var customData: JSONValue?
        try r.enterObject()
        while let key = try r.nextKey() {
            switch key {
            case "type":
                guard try !r.takeNull() else { return nil }
                isStatus = try r.readString() == "MEDIA_STATUS"
                if isStatus == false { return nil }
            case "requestId": requestId = try r.optionalInt()
            case "status":
                if isStatus == nil, try r.peek() != UInt8(ascii: "[") { return nil }
                status = try r.optionalArray(of: MediaStatus.self)
            case "customData": customData = try r.optionalValue()
            default: try r.skipValue()
            }
        }
        guard isStatus == true, let status else { return nil }
        return .mediaStatus(MediaStatusMessage(requestId: requestId, status: status, customData: customData))
    }
}
