// pgndb serve: the explorer and the API over HTTP (docs/serve.md), until SIGINT or SIGTERM.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <iostream>
#include <thread>

#include "command.h"
#include "pgndb/serve/server.h"

namespace pgndb::cli {

void declare_serve(po::options_description& options, po::positional_options_description&) {
  options.add_options()("db", po::value<std::string>()->required(), "database directory")(
      "host", po::value<std::string>()->default_value("127.0.0.1"),
      "address to listen on (the default serves this machine only)")(
      "port", po::value<unsigned>()->default_value(9090), "port (0: any free port)")(
      "threads", po::value<unsigned>()->default_value(16),
      "connections served at once (a kept-alive connection holds its thread)")(
      "cache-mb", po::value<unsigned>()->default_value(256),
      "memory for the games and index blocks read, kept for the next requests");
}

Parsed<serve::ServerOptions> parse_serve(const po::variables_map& vm) {
  serve::ServerOptions options;
  options.db = vm["db"].as<std::string>();
  options.host = vm["host"].as<std::string>();
  if (options.host.empty()) return std::unexpected("--host: an address is required");
  const unsigned cache_mb = vm["cache-mb"].as<unsigned>();
  for (auto checked : {within("port", vm["port"].as<unsigned>(), 0, 65535),
                       within("threads", vm["threads"].as<unsigned>(), 1, 256),
                       within("cache-mb", cache_mb, 0, 1u << 20)})
    if (!checked) return std::unexpected(checked.error());
  options.port = vm["port"].as<unsigned>();
  options.threads = vm["threads"].as<unsigned>();
  options.cache_bytes = std::size_t(cache_mb) << 20;
  return options;
}

int run_serve(const serve::ServerOptions& options) {
  // SIGINT and SIGTERM go to one thread that stops the server: blocked before any thread
  // starts, so that every thread inherits the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  auto server = serve::Server::start(options);
  if (!server) {
    std::cerr << "pgndb serve: " << server.error().message() << '\n';
    return Usage;
  }
  std::cout << "pgndb serve: http://" << options.host << ':' << server->port() << "/ (database "
            << options.db << "; Ctrl-C stops)" << std::endl;
  std::thread waiter([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    server->stop();
  });
  server->run();
  // Stopped otherwise than by a signal (the listening socket failed): wake the waiter. After a
  // signal the waiter has returned, and this one stays pending, blocked, until the exit.
  kill(getpid(), SIGTERM);
  waiter.join();
  return Success;
}

extern const Command serve_command{
    "serve", "the opening explorer and a JSON API over HTTP (lichess's explorer format)",
    "pgndb serve --db DIR [--host 127.0.0.1] [--port 9090] [--threads N] [--cache-mb MB]",
    declare_serve, [](const po::variables_map& vm) {
      return parse_then_run("serve", vm, parse_serve, run_serve);
    }};

}  // namespace pgndb::cli
