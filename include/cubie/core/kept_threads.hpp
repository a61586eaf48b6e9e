#pragma once
// Host threads kept from one call to the next, to run jobs side by side: a solve over
// several devices runs each device's share on one. A kept thread keeps its OpenMP team,
// over which its device's host copies (page-locked staging) run; a thread made for each
// solve made a new team on every solve. On 4 H200s, final states at 2^24 from pageable
// inputs into a reused result took 10.7 ms against 12.3 (2 devices: 15.1 against 17.9;
// bench/RESULTS.md). Those teams idle as OpenMP's do between parallel regions: they spin a
// while (OMP_WAIT_POLICY, GOMP_SPINCOUNT) and then sleep.
//
// The threads are never joined: a program may end (exit(), from a progress callback too)
// while a solve runs, and joining then would wait for a job that waits for the ending thread.

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace cubie {

class kept_threads {
public:
    /// Runs every job at once: jobs[0] on the calling thread, each other on a kept thread
    /// that is idle (or a new one, kept afterwards); returns once all have returned. Calls
    /// from several threads at once each take threads of their own. jobs[0]'s exception
    /// comes out once the others have returned; the others must not throw, and no job may
    /// wait for another.
    static void run_together(const std::vector<std::function<void()>>& jobs) {
        if (jobs.empty()) return;
        std::vector<std::function<void()>> others(jobs.begin() + 1, jobs.end());
        // Returns (or unwinds, where jobs[0] throws) only once every job started has
        // returned: they may refer to the caller's stack.
        struct finishing {
            std::vector<worker*> taken;
            std::size_t started = 0;
            ~finishing() {
                for (std::size_t k = 0; k < started; ++k) taken[k]->wait();
                pool().give_back(taken);
            }
        } f{pool().take(others.size())};
        for (; f.started < others.size(); ++f.started)
            f.taken[f.started]->start(std::move(others[f.started]));
        jobs[0]();
    }

private:
    /// A thread that runs one job at a time, handed to it by start().
    class worker {
    public:
        worker() {
            std::thread([this] { serve(); }).detach();
        }
        worker(const worker&) = delete;
        worker& operator=(const worker&) = delete;

        void start(std::function<void()>&& job) {
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                job_ = std::move(job);
            }
            changed_.notify_all();
        }
        /// Until the job that start() handed over has returned.
        void wait() {
            std::unique_lock<std::mutex> lock(mutex_);
            changed_.wait(lock, [&] { return !job_; });
        }

    private:
        [[noreturn]] void serve() {
            std::unique_lock<std::mutex> lock(mutex_);
            for (;;) {
                changed_.wait(lock, [&] { return static_cast<bool>(job_); });
                lock.unlock();
                job_();
                lock.lock();
                job_ = nullptr;
                changed_.notify_all();
            }
        }

        std::mutex mutex_;
        std::condition_variable changed_;
        std::function<void()> job_;
    };

    /// Every worker made, and which of them are idle.
    class workers {
    public:
        /// `count` idle workers, made where too few are; none where one cannot be made.
        std::vector<worker*> take(std::size_t count) {
            const std::lock_guard<std::mutex> lock(mutex_);
            std::vector<worker*> taken;
            taken.reserve(count);
            // Room for every worker there will be: giving them back allocates nothing.
            idle_.reserve(all_.size() + count);
            try {
                while (taken.size() < count && !idle_.empty()) {
                    taken.push_back(idle_.back());
                    idle_.pop_back();
                }
                while (taken.size() < count) {
                    all_.reserve(all_.size() + 1);
                    all_.push_back(std::make_unique<worker>());
                    taken.push_back(all_.back().get());
                }
            } catch (...) {
                idle_.insert(idle_.end(), taken.begin(), taken.end());
                throw;
            }
            return taken;
        }
        void give_back(const std::vector<worker*>& taken) {
            const std::lock_guard<std::mutex> lock(mutex_);
            idle_.insert(idle_.end(), taken.begin(), taken.end());
        }

    private:
        std::mutex mutex_;
        std::vector<std::unique_ptr<worker>> all_;
        std::vector<worker*> idle_;
    };

    /// Made once and never destroyed, with its threads (see above).
    static workers& pool() {
        static workers& kept = *new workers;
        return kept;
    }
};

}  // namespace cubie
