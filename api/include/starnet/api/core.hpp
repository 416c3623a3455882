#pragma once
/// @file
/// starnet's foundation as both faces use it through the api: the errors (each with its exit code
/// and, when it is about a setting, that setting: core/error.hpp), exact rationals
/// (core/rational.hpp), and the stop request and progress of long calls (core/interrupt.hpp).

#include <starnet/core/error.hpp>
#include <starnet/core/interrupt.hpp>
#include <starnet/core/rational.hpp>
