"""Which names a definition may use: C++ identifiers that are neither keywords nor names
the generated header uses itself."""

import re

CXX_KEYWORDS = frozenset("""
alignas alignof and and_eq asm atomic_cancel atomic_commit atomic_noexcept auto bitand
bitor bool break case catch char char8_t char16_t char32_t class compl concept const
consteval constexpr constinit const_cast continue co_await co_return co_yield decltype
default delete do double dynamic_cast else enum explicit export extern false float for
friend goto if inline int long mutable namespace new noexcept not not_eq nullptr operator
or or_eq private protected public reflexpr register reinterpret_cast requires return short
signed sizeof static static_assert static_cast struct switch synchronized template this
thread_local throw true try typedef typeid typename union unsigned using virtual void
volatile wchar_t while xor xor_eq final override import module
""".split())

# Identifiers the generated header declares or uses: the members of the System concept,
# the function arguments, the helpers it names, and the macros it expands.
GENERATED_IDENTIFIERS = frozenset("""
T value_type n_states n_parameters n_observables n_drivers rhs observables jacobian jvp
time_derivative driver_jacobian state_names parameter_names observable_names driver_names
default_state default_parameters dydt out J Jd v jv dfdt y p d cubie cuda std vector
state_t parameters_t drivers_t observables_t jacobian_t CUBIE_HD CUBIE_UNROLL
""".split())

IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
TEMPORARY = re.compile(r"s[0-9]+\Z")  # common subexpressions are s0, s1, ...


def problem_with(name: str, in_code: bool = True) -> str:
    """Why `name` cannot name a quantity, or '' when it can. Names `in_code` (constants,
    the type) become C++ identifiers of the header and must not clash with its own; the
    others (states, parameters, ...) appear only as strings and indices."""
    if not IDENTIFIER.match(name):
        return (f"'{name}' is not a valid name: use a letter followed by letters, digits "
                "or underscores")
    if name in CXX_KEYWORDS:
        return f"'{name}' is a C++ keyword"
    if in_code and (name in GENERATED_IDENTIFIERS or TEMPORARY.match(name)):
        return f"'{name}' clashes with an identifier of the generated header"
    if "__" in name:
        return f"'{name}' contains '__', which C++ reserves"
    return ""
