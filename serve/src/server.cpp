#include "pgndb/serve/server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <thread>

#include "pgn/text.h"
#include "pgndb/index/store.h"
#include "pgndb/serve/respond.h"

namespace pgndb::serve {

namespace {

// httplib's own pool queues every accepted connection without limit. This one holds at most
// `limit` waiting connections; past that the accepting thread waits for room, so that further
// clients wait in the kernel's backlog instead of in memory.
class BoundedPool : public httplib::TaskQueue {
 public:
  BoundedPool(std::size_t threads, std::size_t limit) : limit_(limit) {
    for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
  }
  ~BoundedPool() override = default;

  void enqueue(std::function<void()> fn) override {
    std::unique_lock lock(mutex_);
    room_.wait(lock, [&] { return jobs_.size() < limit_ || shutdown_; });
    jobs_.push_back(std::move(fn));
    ready_.notify_one();
  }
  void shutdown() override {
    {
      std::lock_guard lock(mutex_);
      shutdown_ = true;
    }
    ready_.notify_all();
    room_.notify_all();
    for (auto& t : threads_) t.join();
  }

 private:
  void work() {
    while (true) {
      std::function<void()> fn;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [&] { return !jobs_.empty() || shutdown_; });
        if (jobs_.empty()) return;  // shut down, nothing left
        fn = std::move(jobs_.front());
        jobs_.pop_front();
        room_.notify_one();
      }
      fn();
    }
  }

  const std::size_t limit_;
  std::mutex mutex_;
  std::condition_variable ready_, room_;
  std::deque<std::function<void()>> jobs_;
  std::vector<std::thread> threads_;
  bool shutdown_ = false;
};

std::filesystem::file_time_type directory_time(const std::string& dir) {
  std::error_code error;
  const auto t = std::filesystem::last_write_time(dir, error);
  return error ? std::filesystem::file_time_type() : t;
}

std::expected<std::shared_ptr<const index::Store>, index::Status> open_store(
    const ServerOptions& options) {
  // Import records open too: /api/stats reads them. A server opens once, not per request, and
  // keeps what it reads.
  auto store = index::Store::open(options.db, {.create_if_missing = false,
                                               .read_only = true,
                                               .block_cache_bytes = options.cache_bytes,
                                               .cache_game_data = true});
  if (!store) return std::unexpected(store.error());
  return std::make_shared<const index::Store>(std::move(*store));
}

}  // namespace

struct Server::Impl {
  ServerOptions options;
  httplib::Server http;
  int port = 0;

  std::mutex store_mutex;
  std::shared_ptr<const index::Store> store;  // replaced whole when an import changed the files

  std::mutex stop_mutex;
  std::condition_variable stop_signal;
  bool stopping = false;
  std::thread refresher;

  std::shared_ptr<const index::Store> current() {
    std::lock_guard lock(store_mutex);
    return store;
  }

  // Opens the database again when its directory changed (an import or a compaction adds and
  // removes files); requests under way keep the store they started with.
  void refresh_until_stopped() {
    auto seen = directory_time(options.db);
    std::unique_lock lock(stop_mutex);
    while (!stop_signal.wait_for(lock, options.refresh, [&] { return stopping; })) {
      const auto now = directory_time(options.db);
      if (now == seen) continue;
      lock.unlock();
      auto fresh = open_store(options);
      lock.lock();
      // A failed open (the writer was deleting files at that moment) is tried again next time.
      if (!fresh) continue;
      seen = now;
      std::lock_guard store_lock(store_mutex);
      store = std::move(*fresh);
    }
  }

  void answer(const httplib::Request& request, httplib::Response& response) {
    const std::size_t mark = request.target.find('?');
    const std::string_view query = mark == std::string::npos
                                       ? std::string_view()
                                       : std::string_view(request.target).substr(mark + 1);
    Response r = respond(current(), request.path, query);
    response.status = r.status;
    if (r.stream) {
      auto stream = std::move(r.stream);
      response.set_chunked_content_provider(
          r.content_type, [stream](std::size_t, httplib::DataSink& sink) {
            std::string piece;
            const bool more = stream(piece);
            if (!piece.empty() && !sink.write(piece.data(), piece.size())) return false;
            if (!more) sink.done();
            return true;
          });
    } else {
      response.set_content(r.body, r.content_type);
    }
  }
};

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Server::Server(Server&&) noexcept = default;
Server& Server::operator=(Server&&) noexcept = default;
Server::~Server() {
  if (!impl_) return;
  stop();
  if (impl_->refresher.joinable()) impl_->refresher.join();
}

std::expected<Server, index::Status> Server::start(const ServerOptions& options) {
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  auto store = open_store(options);
  if (!store) return std::unexpected(store.error());
  impl->store = std::move(*store);

  Impl* self = impl.get();
  const std::size_t threads = std::max(1u, options.threads);
  impl->http.new_task_queue = [threads] { return new BoundedPool(threads, 4 * threads); };
  // Bounds on what one client can hold: a request is read within 5 s, a response written
  // within 30 s; a connection kept alive serves at most 1,000 requests and idles at most 5 s.
  // Requests are GETs: no body is read. The request line and the headers are bounded by
  // httplib (8 KiB each).
  impl->http.set_read_timeout(std::chrono::seconds(5));
  impl->http.set_write_timeout(std::chrono::seconds(30));
  impl->http.set_keep_alive_max_count(1000);
  impl->http.set_keep_alive_timeout(5);
  impl->http.set_payload_max_length(64 * 1024);
  // Answers are small and whole: sent at once, not held back for more to send (Nagle).
  impl->http.set_tcp_nodelay(true);
  impl->http.Get(".*", [self](const httplib::Request& request, httplib::Response& response) {
    self->answer(request, response);
  });
  impl->http.set_error_handler([](const httplib::Request&, httplib::Response& response) {
    if (!response.body.empty()) return;
    response.set_content(pgn::cat("{\"error\": \"HTTP ", response.status, "\"}"),
                         "application/json");
  });

  // cpp-httplib 0.11 listens with a backlog of 5 (compiled into Debian's library): a burst of
  // new connections (a browser opening six, a load test's clients) overflowed it, and a dropped
  // connection waited a second for the client's retry. The listening socket, seen here before
  // httplib binds it, is given a longer queue once bound.
  int listening = -1;
  impl->http.set_socket_options([&listening](socket_t sock) {
    httplib::default_socket_options(sock);
    listening = sock;
  });
  if (options.port == 0) {
    impl->port = impl->http.bind_to_any_port(options.host);
    if (impl->port < 0)
      return std::unexpected(index::Status::error(index::Status::Code::IoError,
                                                  pgn::cat("cannot listen on ", options.host)));
  } else {
    if (!impl->http.bind_to_port(options.host, static_cast<int>(options.port)))
      return std::unexpected(
          index::Status::error(index::Status::Code::IoError,
                               pgn::cat("cannot listen on ", options.host, ":", options.port,
                                        " (in use, or not an address of this machine)")));
    impl->port = static_cast<int>(options.port);
  }
  if (listening >= 0) ::listen(listening, 256);
  // The callback refers to this function's `listening`: httplib keeps it, so it goes now.
  impl->http.set_socket_options(httplib::default_socket_options);
  impl->refresher = std::thread([self] { self->refresh_until_stopped(); });
  return Server(std::move(impl));
}

unsigned Server::port() const { return static_cast<unsigned>(impl_->port); }

void Server::run() { impl_->http.listen_after_bind(); }

void Server::stop() {
  {
    std::lock_guard lock(impl_->stop_mutex);
    impl_->stopping = true;
  }
  impl_->stop_signal.notify_all();
  impl_->http.stop();
}

}  // namespace pgndb::serve
