//! The engine work that a request asks for — hints and reviews — runs here,
//! on a fixed number of threads of its own, never on the threads that answer
//! requests. Work beyond what the pool takes is refused at once with a
//! "try again in N s" (429 `Retry-After`), never left to hang.
//!
//! ```text
//! request ──submit(job)──▶ [≤ 2 waiting per worker] ──▶ worker 1..N ──▶ job(pool)
//!                            ▲                                        │
//!                            └──────── continue_with(next step) ◀─────┘  (a review, one position a step)
//! ```
//! A review is a chain of steps, one position each; a worker takes new work
//! (a hint) before the next step of work under way, so a hint asked during
//! long reviews waits for at most the positions being searched, not for
//! the reviews.

use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// New jobs that may wait per worker; one more is refused at once, so that
/// a hint is never left waiting for seconds behind a long queue.
pub const WAITING_PER_WORKER: usize = 2;

/// Seconds a refused request is told to wait.
pub const RETRY_AFTER_S: u32 = 2;

/// One piece of engine work; it may queue its next step on the pool.
pub type Job = Box<dyn FnOnce(&Pool) + Send>;

/// The pool was full (or is stopping): the job was not taken.
#[derive(Debug, PartialEq, Eq)]
pub struct Busy {
    /// Jobs waiting when it was refused.
    pub waiting: usize,
}

struct Queue {
    /// New work, first come first served.
    jobs: VecDeque<Job>,
    /// Next steps of work under way, taken when no new work waits.
    steps: VecDeque<Job>,
    open: bool,
}

struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    /// New jobs that may wait at once.
    capacity: usize,
}

/// The pool; cheap to clone (every clone is the same pool).
#[derive(Clone)]
pub struct Pool {
    shared: Arc<Shared>,
}

impl Pool {
    /// A pool of `workers` threads (at least one).
    ///
    /// # Errors
    /// No thread could be started.
    pub fn start(workers: usize) -> std::io::Result<Pool> {
        let pool = Pool {
            shared: Arc::new(Shared {
                queue: Mutex::new(Queue {
                    jobs: VecDeque::new(),
                    steps: VecDeque::new(),
                    open: true,
                }),
                ready: Condvar::new(),
                capacity: workers.max(1) * WAITING_PER_WORKER,
            }),
        };
        for i in 0..workers.max(1) {
            let p = pool.clone();
            std::thread::Builder::new()
                .name(format!("engine-{i}"))
                .spawn(move || p.work())?;
        }
        Ok(pool)
    }

    /// As many workers as the machine has cores.
    ///
    /// # Errors
    /// No thread could be started.
    pub fn for_this_machine() -> std::io::Result<Pool> {
        Pool::start(std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get))
    }

    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.shared
            .queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues a new piece of work.
    ///
    /// # Errors
    /// [`WAITING_PER_WORKER`] jobs per worker are already waiting, or the
    /// pool is stopping.
    pub fn submit(&self, job: Job) -> Result<(), Busy> {
        let mut q = self.queue();
        if !q.open || q.jobs.len() >= self.shared.capacity {
            return Err(Busy {
                waiting: q.jobs.len(),
            });
        }
        q.jobs.push_back(job);
        drop(q);
        self.shared.ready.notify_one();
        Ok(())
    }

    /// Queues the next step of work already taken (a review's next
    /// position): it is not refused for a full queue, since the work was
    /// admitted when it began; it is dropped only when the pool stops.
    pub fn continue_with(&self, job: Job) {
        let mut q = self.queue();
        if q.open {
            q.steps.push_back(job);
            drop(q);
            self.shared.ready.notify_one();
        }
    }

    /// Stops taking work and drops what waits; the workers end after the
    /// job each is running.
    pub fn close(&self) {
        let dropped: Vec<Job> = {
            let mut q = self.queue();
            q.open = false;
            let steps: Vec<Job> = q.steps.drain(..).collect();
            q.jobs.drain(..).chain(steps).collect()
        };
        // Dropped outside the lock: a job's captures may hold a reply channel.
        drop(dropped);
        self.shared.ready.notify_all();
    }

    fn work(&self) {
        loop {
            let job = {
                let mut q = self.queue();
                loop {
                    if let Some(job) = q.jobs.pop_front().or_else(|| q.steps.pop_front()) {
                        break job;
                    }
                    if !q.open {
                        return;
                    }
                    q = self
                        .shared
                        .ready
                        .wait(q)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            };
            // A bug in one job must not take a worker with it.
            if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(self))).is_err() {
                eprintln!("volkhv serve: internal error in engine work");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn jobs_run_and_a_full_queue_refuses() {
        let pool = Pool::start(1).unwrap();
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let gate = Mutex::new(gate_rx);
        let (done_tx, done_rx) = mpsc::channel();
        // The one worker waits at the gate; the queue fills behind it.
        let tx = done_tx.clone();
        pool.submit(Box::new(move |_| {
            let _ = gate.lock().unwrap().recv();
            tx.send(0).unwrap();
        }))
        .unwrap();
        std::thread::sleep(Duration::from_millis(50));
        for i in 1..=WAITING_PER_WORKER {
            let tx = done_tx.clone();
            pool.submit(Box::new(move |_| tx.send(i).unwrap())).unwrap();
        }
        let tx = done_tx.clone();
        let refused = pool.submit(Box::new(move |_| tx.send(999).unwrap()));
        assert_eq!(
            refused,
            Err(Busy {
                waiting: WAITING_PER_WORKER
            })
        );
        gate_tx.send(()).unwrap();
        let got: Vec<usize> = (0..=WAITING_PER_WORKER)
            .map(|_| done_rx.recv_timeout(Duration::from_secs(5)).unwrap())
            .collect();
        assert_eq!(
            got,
            (0..=WAITING_PER_WORKER).collect::<Vec<_>>(),
            "in order"
        );
        assert!(done_rx.recv_timeout(Duration::from_millis(100)).is_err());
    }

    #[test]
    fn new_work_goes_before_the_next_steps() {
        let pool = Pool::start(1).unwrap();
        let (tx, rx) = mpsc::channel();
        let (gate_tx, gate_rx) = mpsc::channel::<()>();
        let gate = Mutex::new(gate_rx);
        let t = tx.clone();
        pool.submit(Box::new(move |p| {
            let _ = gate.lock().unwrap().recv();
            let t2 = t.clone();
            p.continue_with(Box::new(move |_| t2.send("step").unwrap()));
            t.send("first").unwrap();
        }))
        .unwrap();
        std::thread::sleep(Duration::from_millis(50));
        let t = tx.clone();
        pool.submit(Box::new(move |_| t.send("hint").unwrap()))
            .unwrap();
        gate_tx.send(()).unwrap();
        let got: Vec<&str> = (0..3)
            .map(|_| rx.recv_timeout(Duration::from_secs(5)).unwrap())
            .collect();
        assert_eq!(got, ["first", "hint", "step"]);
    }

    #[test]
    fn steps_chain_and_a_closed_pool_takes_nothing() {
        let pool = Pool::start(2).unwrap();
        let (tx, rx) = mpsc::channel();
        fn step(n: u32, tx: mpsc::Sender<u32>, pool: &Pool) {
            tx.send(n).unwrap();
            if n < 5 {
                pool.continue_with(Box::new(move |p| step(n + 1, tx, p)));
            }
        }
        pool.submit(Box::new(move |p| step(1, tx, p))).unwrap();
        let got: Vec<u32> = (0..5)
            .map(|_| rx.recv_timeout(Duration::from_secs(5)).unwrap())
            .collect();
        assert_eq!(got, [1, 2, 3, 4, 5]);
        pool.submit(Box::new(|_| panic!("a bug"))).unwrap();
        let (tx, rx) = mpsc::channel();
        pool.submit(Box::new(move |_| tx.send(()).unwrap()))
            .unwrap();
        rx.recv_timeout(Duration::from_secs(5))
            .expect("the workers outlive a panic");
        pool.close();
        assert!(pool.submit(Box::new(|_| {})).is_err());
    }
}
