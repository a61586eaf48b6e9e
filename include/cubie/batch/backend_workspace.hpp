#pragma once
// What a backend keeps in a result between solves into it: the cuda backend's streams,
// device buffers and page-locked staging, so that repeated solves of one shape into one
// result allocate nothing (page-locked memory in particular costs milliseconds per
// megabyte to allocate). The backend decides what it holds; a result only carries it.
// A copy of a result starts without one: two results never share buffers.

#include <memory>
#include <utility>

namespace cubie {

class backend_workspace {
public:
    /// What one backend keeps; it derives from this.
    struct contents {
        virtual ~contents() = default;
    };

    backend_workspace() = default;
    backend_workspace(const backend_workspace&) noexcept {}
    backend_workspace& operator=(const backend_workspace&) noexcept { return *this; }
    backend_workspace(backend_workspace&&) noexcept = default;
    backend_workspace& operator=(backend_workspace&&) noexcept = default;
    ~backend_workspace() = default;

    /// What is kept, when a backend of kind C kept it; else a new, empty C.
    template <class C>
    C& get() {
        if (auto* kept = dynamic_cast<C*>(kept_.get())) return *kept;
        auto fresh = std::make_unique<C>();
        C& ref = *fresh;
        kept_ = std::move(fresh);
        return ref;
    }

    /// Frees what is kept.
    void release() noexcept { kept_.reset(); }

private:
    std::unique_ptr<contents> kept_;
};

}  // namespace cubie
