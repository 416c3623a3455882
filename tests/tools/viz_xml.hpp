#pragma once
// For the tests of the drawings (Gantt charts, `topo draw`, `viz` pages): a strict well-formedness
// check of XML text (xmllint --noout, libxml2-utils) and the elements of a document as a flat list
// (Boost.PropertyTree's XML parser), so that tests can count bars, nodes and links.

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace starnet::tools::testing {

/// Empty when @p xml is well-formed; otherwise what xmllint reports.
inline std::string xml_errors(const std::string& xml) {
  const auto path = std::filesystem::temp_directory_path() / ("starnet_xml_" + std::to_string(::getpid()) + ".xml");
  std::ofstream(path) << xml;
  FILE* pipe = ::popen(("xmllint --noout '" + path.string() + "' 2>&1").c_str(), "r");
  std::string out;
  char buf[4096];
  std::size_t n = 0;
  while (pipe != nullptr && (n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  const int status = pipe != nullptr ? ::pclose(pipe) : -1;
  std::filesystem::remove(path);
  return status == 0 ? out : "xmllint exit status " + std::to_string(status) + ": " + out;
}

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::string text;  ///< the element's own text (not its children's)
  /// True when the class attribute lists @p cls.
  [[nodiscard]] bool has_class(const std::string& cls) const {
    const auto it = attributes.find("class");
    if (it == attributes.end()) return false;
    std::istringstream words(it->second);
    for (std::string w; words >> w;) {
      if (w == cls) return true;
    }
    return false;
  }
  [[nodiscard]] double number(const std::string& attribute) const { return std::stod(attributes.at(attribute)); }
};

/// Every element of @p xml in document order. @throws boost::property_tree::xml_parser_error on bad XML.
inline std::vector<XmlElement> xml_elements(const std::string& xml) {
  std::istringstream in(xml);
  boost::property_tree::ptree tree;
  boost::property_tree::read_xml(in, tree);
  std::vector<XmlElement> out;
  const auto walk = [&out](const auto& self, const std::string& name, const boost::property_tree::ptree& node) -> void {
    XmlElement e{name, {}, node.data()};
    if (const auto attrs = node.get_child_optional("<xmlattr>")) {
      for (const auto& [key, value] : *attrs) e.attributes[key] = value.data();
    }
    out.push_back(std::move(e));
    for (const auto& [child, sub] : node) {
      if (child != "<xmlattr>" && child != "<xmlcomment>") self(self, child, sub);
    }
  };
  for (const auto& [name, node] : tree) {
    if (name != "<xmlcomment>") walk(walk, name, node);
  }
  return out;
}

/// The elements named @p name that carry every class of @p classes (space separated; any when empty).
inline std::vector<XmlElement> select(const std::vector<XmlElement>& all, const std::string& name,
                                      const std::string& classes = "") {
  std::vector<XmlElement> out;
  for (const auto& e : all) {
    bool match = e.name == name;
    std::istringstream words(classes);
    for (std::string w; match && words >> w;) match = e.has_class(w);
    if (match) out.push_back(e);
  }
  return out;
}

}  // namespace starnet::tools::testing
