// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

import XCTest

@testable import LocalMedia

/// Which HLS playlists are live (HLSLiveCheck.swift); the HTTP side runs in
/// Tests/System/client/test_live.py.
final class HLSLiveCheckTests: XCTestCase {
    let segments = "#EXTINF:6.0,\na.ts\n#EXTINF:6.0,\nb.ts\n"

    func testAMediaPlaylistWithoutEndlistIsLive() {
        XCTAssertEqual(HLSLiveCheck.judge("#EXTM3U\n#EXT-X-TARGETDURATION:6\n" + segments), true)
        XCTAssertEqual(HLSLiveCheck.judge("#EXTM3U\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXT-X-TARGETDURATION:6\n" + segments), true)
        XCTAssertEqual(HLSLiveCheck.judge("#EXTM3U\r\n#EXT-X-TARGETDURATION:6\r\n" + segments + "#EXT-X-ENDLIST\r\n"), false)
        XCTAssertEqual(HLSLiveCheck.judge("#EXTM3U\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-TARGETDURATION:6\n" + segments), false)
    }

    func testAMasterPlaylistIsJudgedByItsFirstVariant() {
        let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401f\"\nlow/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2\nhigh.m3u8\n"
        XCTAssertNil(HLSLiveCheck.judge(master))
        XCTAssertEqual(HLSLiveCheck.firstVariant(master, base: "https://tv.example/ch/1/master.m3u8"), "https://tv.example/ch/1/low/index.m3u8")
        XCTAssertNil(HLSLiveCheck.judge("<html>not a playlist</html>"))
    }
}
