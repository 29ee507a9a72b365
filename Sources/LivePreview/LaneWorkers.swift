import Foundation

/// A fixed set of threads that answer one lane's requests (``PreviewRouter/Lane``) in the order they
/// come. A connection's thread hands its request over and waits for the answer, so a slow frame holds
/// a frame thread and that connection only.
final class LaneWorkers: @unchecked Sendable {
    private let condition = NSCondition()
    /// What waits for a thread; a job leaves it when a thread takes it, so nothing it holds (a response's
    /// bytes) outlives it. At most a lane's queue bound (64) plus one a connection.
    private var queue: [() -> Void] = []
    private var isStopped = false
    private let finished = DispatchGroup()

    /// Starts `count` threads named `name-1`, `name-2`, … (8 MiB of stack each, as a process's main
    /// thread has: a render runs on them).
    init(name: String, count: Int) {
        for index in 1...max(1, count) {
            finished.enter()
            let thread = Thread { [self] in
                work()
                finished.leave()
            }
            thread.name = "\(name)-\(index)"
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// `body`'s result, computed on one of the threads; nil once the workers are stopping.
    func run<T>(_ body: @escaping () -> T) -> T? {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        condition.lock()
        guard !isStopped else {
            condition.unlock()
            return nil
        }
        queue.append {
            box.value = body()
            done.signal()
        }
        condition.signal()
        condition.unlock()
        done.wait()
        return box.value
    }

    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty && !isStopped { condition.wait() }
            guard !queue.isEmpty else {
                condition.unlock()
                return
            }
            let job = queue.removeFirst()
            condition.unlock()
            job()
        }
    }

    /// Lets the threads end once what is queued is done (a request queued still gets its answer), and
    /// returns when they have.
    func stop() async {
        condition.withLock {
            isStopped = true
            condition.broadcast()
        }
        await withCheckedContinuation { continuation in finished.notify(queue: .global()) { continuation.resume() } }
    }
}

/// Where a worker leaves a result for the thread waiting on it (written before, read after, a semaphore).
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
