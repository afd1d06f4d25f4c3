import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A plain TCP forwarder on a loopback port of its own, in front of a server that may move:
/// `CLITrip.restartServer` brings the server back on a new port, and a client that reconnects
/// by itself keeps the address it was given. `hold()` cuts every connection and refuses new
/// ones (the server is "down" for the client); `forward(to:)` lets them through again. Bytes
/// pass unchanged: the client and the server are the real ones.
final class TCPProxy: @unchecked Sendable {
    let port: UInt16
    // Everything below is guarded by `lock`; that is why the class may be shared with its threads.
    private let lock = NSLock()
    private let listener: Int32
    private var target: UInt16?
    private var connections: [ObjectIdentifier: Connection] = [:]
    private var stopped = false
    private var answersLost = false

    var url: URL {
        get throws { try #require(URL(string: "http://127.0.0.1:\(port)")) }
    }

    /// Both sockets of one forwarded connection, closed once, by the last of its two pumps.
    private final class Connection: @unchecked Sendable {
        let client: Int32
        let server: Int32
        // Guarded by the proxy's lock.
        var running = 2

        init(client: Int32, server: Int32) {
            self.client = client
            self.server = server
        }

        func cut() {
            shutdown(client, Int32(SHUT_RDWR))
            shutdown(server, Int32(SHUT_RDWR))
        }
    }

    init(to target: UInt16) throws {
        let listener = socket(AF_INET, Self.streamType, 0)
        try #require(listener >= 0)
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(listener, generic, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, generic, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw ProxyError.cannotListen
        }
        self.listener = listener
        port = UInt16(bigEndian: address.sin_port)
        self.target = target
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// How many connections are open through it (a client that hung up is gone from it).
    var openConnections: Int { lock.withLock { connections.count } }

    /// Cuts every open connection; new ones are accepted and closed at once.
    func hold() {
        lock.withLock {
            target = nil
            for connection in connections.values { connection.cut() }
        }
    }

    /// While on, requests still reach the server, but the client gets a gateway's "504 Gateway
    /// Time-out" page in place of the server's answer (read and dropped), as from a proxy that
    /// gave up waiting just before the server answered: the write happened, its answer is lost.
    func loseAnswers(_ on: Bool) { lock.withLock { answersLost = on } }

    /// New connections go to this port.
    func forward(to port: UInt16) { lock.withLock { target = port } }

    func stop() {
        hold()
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit { close(listener) }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR, !lock.withLock({ stopped }) { continue }
                return
            }
            guard let port = lock.withLock({ target }), let server = Self.dial(port) else {
                close(client)
                continue
            }
            let connection = Connection(client: client, server: server)
            lock.withLock { connections[ObjectIdentifier(connection)] = connection }
            Thread.detachNewThread { [self] in pump(connection, from: client, to: server) }
            Thread.detachNewThread { [self] in pump(connection, from: server, to: client) }
        }
    }

    /// Copies one direction until either side ends, then ends both.
    private func pump(_ connection: Connection, from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        copying: while true {
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            if source == connection.server, lock.withLock({ answersLost }) {
                let page = "<html><body><h1>504 Gateway Time-out</h1></body></html>"
                let answer = Array(
                    ("HTTP/1.1 504 Gateway Time-out\r\nContent-Type: text/html\r\nContent-Length: \(page.utf8.count)\r\n"
                        + "Connection: close\r\n\r\n" + page).utf8)
                _ = answer.withUnsafeBytes { send(destination, $0.baseAddress, $0.count, Self.noSignal) }
                break
            }
            var sent = 0
            while sent < count {
                let written = buffer.withUnsafeBytes {
                    send(destination, $0.baseAddress?.advanced(by: sent), count - sent, Self.noSignal)
                }
                guard written > 0 else { break copying }
                sent += written
            }
        }
        connection.cut()
        let last = lock.withLock {
            connection.running -= 1
            if connection.running == 0 { connections[ObjectIdentifier(connection)] = nil }
            return connection.running == 0
        }
        if last {
            close(connection.client)
            close(connection.server)
        }
    }

    private static func dial(_ port: UInt16) -> Int32? {
        let socketFD = socket(AF_INET, streamType, 0)
        guard socketFD >= 0 else { return nil }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(socketFD)
            return nil
        }
        return socketFD
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        return address
    }

    enum ProxyError: Error { case cannotListen }

    #if canImport(Glibc)
        private static let streamType = Int32(SOCK_STREAM.rawValue)
        /// A write to a socket the other side closed fails instead of killing the test run.
        private static let noSignal = Int32(MSG_NOSIGNAL)
    #else
        private static let streamType = SOCK_STREAM
        private static let noSignal: Int32 = 0
    #endif
}
