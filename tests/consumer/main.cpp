// A library user's program (tests/consumer/CMakeLists.txt): builds the model of S_4 through the
// public API of an installed starnet and checks it has 4! = 24 nodes. Exit 0 if so, 1 otherwise.
#include <starnet/topology/families.hpp>

#include <exception>
#include <iostream>

int main() {
  try {
    const auto topology = starnet::topology::make_topology("star:4");
    const auto nodes = topology->num_nodes();
    std::cout << topology->name() << ": " << nodes << " nodes\n";
    if (nodes != 24) {
      std::cerr << "consumer: star:4 has " << nodes << " nodes (expected 4! = 24)\n";
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "consumer: " << e.what() << '\n';
    return 1;
  }
}
