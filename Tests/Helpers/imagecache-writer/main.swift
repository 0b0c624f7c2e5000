// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors

// Test helper for ImageCacheTests.testProcessKilledWhileWritingLeavesNothingServedLater:
//   imagecache-writer CACHE_DIR URL...
// Fetches each URL into the cache in turn, printing "done <url>" (or "error <url> <message>")
// after each, then waits to be killed. The test kills it with SIGKILL while a slow download is
// being written and checks that nothing half-written is served afterwards.

import ImageCache

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: imagecache-writer CACHE_DIR URL...")
    exit(2)
}
let cache: ImageCache
do {
    cache = try ImageCache(configuration: ImageCacheConfiguration(directory: arguments[1]))
} catch {
    print("error opening cache: \(error)")
    exit(1)
}
for url in arguments.dropFirst(2) {
    do {
        _ = try await cache.image(for: url, fitting: PixelSize(width: 64, height: 64))
        print("done \(url)")
        fflush(nil)
    } catch {
        print("error \(url) \(error)")
        fflush(nil)
    }
}
// Stay alive (and never shut down cleanly) until the test kills us; exit on our own after a while.
try? await Task.sleep(for: .seconds(120))
exit(0)
