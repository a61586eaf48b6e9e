#pragma once
// Host threads kept from one call to the next, to run jobs side by side: a solve over
// several devices runs each device's share on one. A kept thread keeps its OpenMP team,
// over which its device's host copies (page-locked staging) run; a thread made for each
// solve made a new team on every solve. On 4 H200s, final states at 2^24 from pageable
// inputs into a reused result took 10.7 ms against 12.3 (2 devices: 15.1 against 17.9;
// bench/RESULTS.md).

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
    /// from several threads at once each take threads of their own. A job must not throw.
    static void run_together(const std::vector<std::function<void()>>& jobs) {
        if (jobs.empty()) return;
        std::vector<worker*> taken = pool().take(jobs.size() - 1);
        for (std::size_t k = 1; k < jobs.size(); ++k) taken[k - 1]->start(jobs[k]);
        jobs[0]();
        for (worker* w : taken) w->wait();
        pool().give_back(taken);
    }

private:
    /// A thread that runs one job at a time, handed to it by start().
    class worker {
    public:
        worker() : thread_([this] { serve(); }) {}
        worker(const worker&) = delete;
        worker& operator=(const worker&) = delete;
        ~worker() {
            {
                const std::lock_guard<std::mutex> lock(mutex_);
                stopping_ = true;
            }
            changed_.notify_all();
            thread_.join();
        }

        void start(std::function<void()> job) {
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
        void serve() {
            std::unique_lock<std::mutex> lock(mutex_);
            for (;;) {
                changed_.wait(lock, [&] { return stopping_ || job_; });
                if (!job_) return;  // stopping, with no job left
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
        bool stopping_ = false;
        std::thread thread_;  // last: starts once the members it reads are made
    };

    /// Every worker made, and which of them are idle; joined when the program ends.
    class workers {
    public:
        std::vector<worker*> take(std::size_t count) {
            const std::lock_guard<std::mutex> lock(mutex_);
            std::vector<worker*> taken;
            while (taken.size() < count && !idle_.empty()) {
                taken.push_back(idle_.back());
                idle_.pop_back();
            }
            while (taken.size() < count) {
                all_.push_back(std::make_unique<worker>());
                taken.push_back(all_.back().get());
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

    static workers& pool() {
        static workers kept;
        return kept;
    }
};

}  // namespace cubie
