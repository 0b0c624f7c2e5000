// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: CastDeck contributors
import CGtk
import GLibInterop
import GtkInterop
import Observation
import XCTest

/// gtk_init_check() may only be called once: after a failure GTK still marks itself initialised.
let gtkAvailable: Bool = gtk_init_check().isTrue

actor Background {
    func hopToMain(_ body: @escaping @MainActor @Sendable () -> Void) {
        Task { @MainActor in body() }
    }
}

@Observable @MainActor
final class Counter {
    var value = 0
}

/// Iterates the default GLib context until `done()` or a hang guard (2 s) expires.
@MainActor
func iterate(until done: () -> Bool) {
    var deadline = 2000
    while !done() && deadline > 0 {
        g_main_context_iteration(nil, 0)
        usleep(1000)
        deadline -= 1
    }
}

/// XCTest runs test methods on the process main thread, which is where GTK and the MainActor live.
final class MainLoopTests: XCTestCase {
    func testBridgeRunsMainActorJobsWhileGLibIterates() throws {
        MainActor.assumeIsolated {
            MainQueueBridge.install()
            final class Flag: @unchecked Sendable { var onMain: Bool? }
            let flag = Flag()
            let bg = Background()
            Task.detached { await bg.hopToMain { flag.onMain = isMainThread() } }
            // Only the GLib loop is iterated: if the bridge did not drain the Dispatch main
            // queue, the job would never run.
            iterate { flag.onMain != nil }
            XCTAssertEqual(flag.onMain, true)
        }
    }

    func testClosureBoxIsReleasedOnDisconnect() throws {
        try XCTSkipUnless(gtkAvailable, "no display")
        MainActor.assumeIsolated {
            final class Target { var hits = 0 }
            weak var weakTarget: Target?
            let button = gtk_button_new()!
            g_object_ref_sink(button.raw)
            var id: gulong = 0
            do {
                let target = Target()
                weakTarget = target
                id = button.on("clicked") { target.hits += 1 }
                button.emit("clicked")
                XCTAssertEqual(target.hits, 1)
            }
            XCTAssertNotNil(weakTarget, "the connection keeps the closure alive")
            button.disconnect(id)
            XCTAssertNil(weakTarget, "disconnect releases the closure box")
            g_object_unref(button.raw)
        }
    }

    func testAccessibleNameAndObserveReRenders() throws {
        try XCTSkipUnless(gtkAvailable, "no display")
        MainActor.assumeIsolated {
            MainQueueBridge.install()
            let counter = Counter()
            let label = Label("")
            g_object_ref_sink(label.raw)
            defer { g_object_unref(label.raw) }
            // The name screen readers get is the accessible label, read back from GTK's AT context.
            label.setAccessibleName("Elapsed time")
            XCTAssertTrue(cgtk_accessible_label_is(label.pointer, "Elapsed time") != 0)
            XCTAssertFalse(
                cgtk_accessible_label_is(label.pointer, "Remaining time") != 0,
                "a different name must not match")
            let token = observe {
                label.text = "n=\(counter.value)"
                label.setAccessibleName("Count \(counter.value)")
            }
            XCTAssertEqual(label.text, "n=0")
            XCTAssertTrue(cgtk_accessible_label_is(label.pointer, "Count 0") != 0)
            counter.value = 5
            iterate { label.text == "n=5" }
            XCTAssertEqual(label.text, "n=5")
            XCTAssertTrue(cgtk_accessible_label_is(label.pointer, "Count 5") != 0, "the name re-renders with the text")
            token.cancel()
            counter.value = 6
            for _ in 0..<20 { g_main_context_iteration(nil, 0) }
            XCTAssertEqual(label.text, "n=5", "cancelled tokens stop rendering")
            XCTAssertTrue(cgtk_accessible_label_is(label.pointer, "Count 5") != 0)
        }
    }

    func testGettextFallsBackToTheMessage() {
        Gettext.setUp(localeDir: "/nonexistent")
        // Placeholders are AppModel's (Localization.substitute): gettext returns them untouched.
        XCTAssertEqual(Gettext.translate("Ad {0} of {1}"), "Ad {0} of {1}")
        XCTAssertEqual(Gettext.translate("{0} device", "{0} devices", 2), "{0} devices")
        XCTAssertEqual(Gettext.translate("{0} device", "{0} devices", 1), "{0} device")
    }
}
