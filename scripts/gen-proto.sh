#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# SPDX-FileCopyrightText: CastDeck contributors
# Regenerates Sources/CastProtocol/Proto/cast_channel.pb.swift from cast_channel.proto.
# The generated file is committed, so ordinary builds never run protoc or its plugin.
# Needs protoc (Debian: protobuf-compiler) and builds protoc-gen-swift from the same
# swift-protobuf version the package depends on (1.39.0).
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=1.39.0
command -v protoc >/dev/null || { [[ $(id -u) == 0 ]] && apt-get install -y -qq protobuf-compiler >/dev/null; }
src=${PROTOBUF_SRC:-/tmp/swift-protobuf-$VERSION}
if [[ ! -d $src ]]; then
  git clone -q --depth 1 --branch "$VERSION" https://github.com/apple/swift-protobuf.git "$src"
fi
swift build --package-path "$src" --product protoc-gen-swift
plugin=$(swift build --package-path "$src" --product protoc-gen-swift --show-bin-path)/protoc-gen-swift
protoc --plugin=protoc-gen-swift="$plugin" \
  --swift_out=Sources/CastProtocol/Proto --swift_opt=Visibility=Public \
  -I Sources/CastProtocol/Proto Sources/CastProtocol/Proto/cast_channel.proto
# protoc-gen-swift writes no licence line; the lint asks every source for one.
sed -i '1i // SPDX-License-Identifier: GPL-3.0-or-later\n// SPDX-FileCopyrightText: CastDeck contributors' \
  Sources/CastProtocol/Proto/cast_channel.pb.swift
echo "regenerated Sources/CastProtocol/Proto/cast_channel.pb.swift"
