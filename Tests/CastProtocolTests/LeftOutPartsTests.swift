// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import Foundation
import Testing

@testable import CastProtocol

/// The tree path reads loosely (protocol.md §17, "What real devices send"): a part that cannot
/// be read is left out and named, the rest is used, and the request id always survives.
@Suite struct LeftOutParts {
    func decode(_ text: String, _ ns: String = CastNamespace.mediaURN) throws -> (NamespacedMessage, [DroppedPart]) {
        var dropped: [DroppedPart] = []
        let m = try CastMessage(source: "a", destination: "b", namespace: ns, utf8: text).decoded(dropped: &dropped)
        return (m, dropped)
    }

    @Test func anUnreadableOptionalMemberIsLeftOutAndNamed() throws {
        let (m, dropped) = try decode(#"{"type":"SEEK","requestId":4,"mediaSessionId":1,"resumeState":7,"currentTime":3}"#)
        guard case .media(.seek(let r)) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(r.requestId == 4 && r.currentTime == 3 && r.resumeState == nil)
        #expect(dropped.map(\.path) == ["resumeState"])
        #expect(dropped.first?.reason.contains("not a string") == true)
    }

    @Test func anUnreadableArrayElementIsLeftOut() throws {
        let (m, dropped) = try decode(#"{"type":"MEDIA_STATUS","requestId":1,"status":[{"mediaSessionId":1,"playerState":"IDLE","activeTrackIds":[1,"x",2]}]}"#)
        guard case .media(.mediaStatus(let s)) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(s.status.first?.activeTrackIds == [1, 2])
        #expect(dropped.map(\.path) == ["status.[0].activeTrackIds.[1]"])
    }

    @Test func aStatusThatCannotBeReadLeavesTheMessageAndItsRequestID() throws {
        let (m, dropped) = try decode(#"{"type":"MEDIA_STATUS","requestId":9,"status":[{"playerState":"IDLE"},{"mediaSessionId":2,"playerState":"PLAYING"}]}"#)
        guard case .media(.mediaStatus(let s)) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(s.requestId == 9)
        #expect(s.status.map(\.mediaSessionId) == [2])
        #expect(dropped.first?.path == "status.[0]")
    }

    @Test func otherShapes() throws {
        // A lone object for an array, numbers and booleans as strings, lower-case enums.
        let (m, _) = try decode(
            #"{"type":"MEDIA_STATUS","requestId":"3","status":{"mediaSessionId":1,"playerState":"playing","currentTime":"12.5","media":{"contentId":"x","streamType":"buffered","duration":"60"},"volume":{"level":1,"muted":"false"}}}"#
        )
        guard case .media(.mediaStatus(let s)) = m, let st = s.status.first else {
            Issue.record("\(m)")
            return
        }
        #expect(s.requestId == 3)
        #expect(st.playerState == .playing && st.currentTime == 12.5)
        #expect(st.media?.streamType == .buffered && st.media?.duration == 60)
        #expect(st.volume?.muted == false)
        // Written back in the protocol's own spelling.
        #expect(CastJSON.encode(MediaMessage.mediaStatus(s)).contains(#""playerState":"PLAYING""#))
    }

    @Test func responseTypeNamesTheMessageWhenTypeIsAbsent() throws {
        let (m, _) = try decode(#"{"responseType":"MEDIA_STATUS","requestId":28,"status":[{"mediaSessionId":1,"playerState":"IDLE"}]}"#)
        guard case .media(.mediaStatus(let s)) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(s.requestId == 28 && s.status.count == 1)
    }

    @Test func aFlatStatusIsTheOneStatus() throws {
        let (m, _) = try decode(#"{"type":"MEDIA_STATUS","mediaSessionId":0,"playerState":"IDLE","media":{"contentId":""}}"#)
        guard case .media(.mediaStatus(let s)) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(s.status.first?.playerState == .idle)
    }

    @Test func mediaWithoutContentIdKeepsItsMetadata() throws {
        let (m, _) = try decode(
            #"{"type":"MEDIA_STATUS","status":[{"mediaSessionId":1,"playerState":"PLAYING","media":{"streamType":"LIVE","metadata":{"metadataType":3,"title":"Song"}}}]}"#
        )
        guard case .media(.mediaStatus(let s)) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(s.status.first?.media?.metadata?.title == "Song")
        #expect(s.status.first?.media?.contentId == "")
    }

    @Test func anAppWithoutTransportIsListedButNotJoinable() throws {
        let (m, dropped) = try decode(
            #"{"type":"RECEIVER_STATUS","requestId":2,"status":{"applications":[{"appId":"YouTube","displayName":"YouTube","statusText":"YouTube on TV","namespaces":[]},{"displayName":"no id"}]}}"#,
            CastNamespace.receiverURN)
        guard case .receiver(.receiverStatus(let s)) = m else {
            Issue.record("\(m)")
            return
        }
        let app = try #require(s.status.runningApp)
        #expect(app.displayName == "YouTube" && app.statusText == "YouTube on TV" && !app.isJoinable)
        #expect(s.status.applications?.count == 1)
        #expect(dropped.map(\.path) == ["status.applications.[1]"])
    }

    @Test func aReceiverStatusWithoutStatusIsEmpty() throws {
        let (m, _) = try decode(#"{"type":"RECEIVER_STATUS","requestId":5}"#, CastNamespace.receiverURN)
        guard case .receiver(.receiverStatus(let s)) = m else {
            Issue.record("\(m)")
            return
        }
        #expect(s.requestId == 5 && s.status.applications == nil)
    }

    @Test func whatAMessageCannotBeWithoutStillFails() {
        #expect(throws: CastProtocolError.self) { try decode(#"{"requestId":1}"#) }
        #expect(throws: CastProtocolError.self) { try decode(#"{"type":"LOAD","requestId":1}"#) }
        #expect(throws: CastProtocolError.self) { try decode("[1]") }
    }
}
