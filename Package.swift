// swift-tools-version:6.0
// CastDeck: a Google Cast controller for the Linux desktop.
// Targets and who may import whom: ../shared/docs/design.md (and README.md).
import PackageDescription

let package = Package(
    name: "CastDeck",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "CastProtocol", targets: ["CastProtocol"]),
        .library(name: "ImageCache", targets: ["ImageCache"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-protobuf.git", exact: "1.39.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
    ],
    targets: [
        // The wire: CastMessage protobuf, length framing, JSON models of every namespace. No I/O.
        .target(
            name: "CastProtocol",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")],
            exclude: ["Proto/cast_channel.proto"]
        ),
        .testTarget(
            name: "CastProtocolTests",
            dependencies: ["CastProtocol"],
            resources: [.copy("Fixtures")]
        ),
        // Fuzzing entry point for frame + JSON decoding: see scripts/fuzz.sh.
        // Built normally it replays files given on the command line through the same code.
        .executableTarget(
            name: "castproto-fuzz",
            dependencies: ["CastProtocol"],
            path: "Fuzz/castproto-fuzz"
        ),
        // Benchmarks print figures and compare with a peer in the same run: see Benchmarks/README.md.
        .executableTarget(
            name: "castdeck-bench-protocol",
            dependencies: ["CastProtocol"],
            path: "Benchmarks/protocol"
        ),
        // Artwork: image picker and the on-disk image cache (docs/imagecache.md).
        .systemLibrary(
            name: "CGdkPixbuf",
            path: "Sources/CGdkPixbuf",
            pkgConfig: "gdk-pixbuf-2.0",
            providers: [.apt(["libgdk-pixbuf-2.0-dev"])]
        ),
        .target(
            name: "ImageCache",
            dependencies: [
                "CastProtocol",
                "CGdkPixbuf",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ImageCacheTests",
            dependencies: [
                "ImageCache", "CastProtocol",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            exclude: ["Fixtures"]
        ),
        // Child process for the crash-safety test: writes into a cache until it is SIGKILLed.
        .executableTarget(
            name: "imagecache-writer",
            dependencies: ["ImageCache"],
            path: "Tests/Helpers/imagecache-writer"
        ),
        .executableTarget(
            name: "castdeck-bench-imagecache",
            dependencies: [
                "ImageCache", "CGdkPixbuf",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            path: "Benchmarks/imagecache"
        ),
    ],
    swiftLanguageModes: [.v6]
)
