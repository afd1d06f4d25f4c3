import Foundation
import SplitSpawn
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("programs run beside this one (ChildProgram)")
struct ChildProgramTests {
    @Test("output, error, input, environment, folder and exit status reach the caller")
    func runs() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-program-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let finished = try ChildProgram.run(
            "/bin/sh", ["-c", #"read line; echo "out $line $GREETING $(pwd)"; echo "err" >&2; exit 3"#],
            environment: ["GREETING": "hello", "PATH": "/usr/bin:/bin"], directory: folder.path,
            input: Data("Aki\n".utf8))
        #expect(finished.status == 3)
        #expect(finished.outputText == "out Aki hello \(folder.resolvingSymlinksInPath().path)\n")
        #expect(finished.errorText == "err\n")

        let merged = try ChildProgram.run("/bin/sh", ["-c", "echo one; echo two >&2"], errorToOutput: true)
        #expect(merged.status == 0 && merged.outputText == "one\ntwo\n" && merged.error.isEmpty)
    }

    @Test("a program that cannot start is an error naming it, not a status")
    func missing() {
        #expect(throws: ChildProgramError.self) { try ChildProgram.run("/nonexistent/qrencode", []) }
    }

    @Test("the child holds only its three streams and starts with every signal at its default, none blocked")
    func cleanStart() throws {
        // This process ignores SIGPIPE (as a server does) and holds a descriptor without close-on-exec.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let leaked = open("/dev/null", O_RDONLY)
        defer { close(leaked) }
        let finished = try ChildProgram.run(
            "/bin/sh", ["-c", "ls /proc/self/fd; grep -E '^Sig(Ign|Blk)' /proc/self/status"])
        let lines = finished.outputText.split(separator: "\n")
        // 0, 1, 2 and the descriptor `ls` opens on the folder it lists.
        #expect(lines.prefix(while: { Int($0) != nil }).count == 4, "\(finished.outputText)")
        // The standard signals (1 to 31); glibc's posix_spawn ignores its own two (32, 33).
        func standard(_ field: String) -> UInt64? {
            lines.first { $0.hasPrefix(field + ":\t") }.flatMap { UInt64($0.dropFirst(field.count + 2), radix: 16) }
                .map { $0 & 0x7fff_ffff }
        }
        #expect(standard("SigIgn") == 0 && standard("SigBlk") == 0, "\(finished.outputText)")
    }

    @Test("a signal ends it with 128 + the signal; the status stays once read")
    func signalled() throws {
        let program = try ChildProgram.start("/bin/sleep", ["30"])
        #expect(program.isRunning)
        program.send(SIGTERM)
        #expect(program.waitForExit() == 128 + SIGTERM)
        #expect(program.exitStatus == 128 + SIGTERM && !program.isRunning)
        program.send(SIGKILL)  // ended: nothing is sent
    }

    @Test("many at once from many threads, each with its own output (Foundation's Process crashed here)")
    func manyAtOnce() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let finished = try await ChildProgram.runDetached("/bin/sh", ["-c", "echo \(index)"])
                    #expect(finished.status == 0 && finished.outputText == "\(index)\n")
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("a wait on one thread and a look from another both see the one exit")
    func waitAndLook() async throws {
        for _ in 0..<20 {
            let program = try ChildProgram.start("/bin/sh", ["-c", "exit 7"])
            async let waited = withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: program.waitForExit()) }
            }
            var looked: Int32?
            while looked == nil { looked = program.exitStatus }
            #expect(await waited == 7 && looked == 7)
        }
    }
}
