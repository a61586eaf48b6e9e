"""Which names a definition may use: C++ identifiers that are neither keywords, nor
macros of the standard libraries, the platform, CUDA or this library, nor names the
generated header uses itself."""

import re

from cubie_codegen.macros import MACROS

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
default_state default_parameters jacobian_pattern sparsity_pattern dydt out J Jd v jv dfdt
y p d cubie cuda std vector
state_t parameters_t drivers_t observables_t jacobian_t CUBIE_HD CUBIE_UNROLL
""".split())

IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
TEMPORARY = re.compile(r"s[0-9]+\Z")  # common subexpressions are s0, s1, ...


# Namespaces the generated code names (cuda::std::exp, cubie::rsqrt): a namespace of the
# definition must not take their names, or those names would be found in it instead.
LIBRARY_NAMESPACES = ("cubie", "cuda", "std")
CATALOGUE = "cubie::catalogue"


def problem_with(name: str, in_code: bool = True) -> str:
    """Why `name` cannot name a quantity, or '' when it can. Names `in_code` (constants,
    the type) become C++ identifiers of the header and must not clash with its own or
    with a macro; the others (states, parameters, ...) appear only as strings and
    indices."""
    if not IDENTIFIER.match(name):
        return (f"'{name}' is not a valid name: use a letter followed by letters, digits "
                "or underscores")
    if name in CXX_KEYWORDS:
        return f"'{name}' is a C++ keyword"
    if "__" in name:
        return f"'{name}' contains '__', which C++ reserves"
    if not in_code:
        return ""
    if name in GENERATED_IDENTIFIERS or TEMPORARY.match(name):
        return f"'{name}' clashes with an identifier of the generated header"
    return _macro_problem(name)


# Families of macros that grow with the platform, refused by their prefix so that a newer
# platform's are refused too: C reserves PRI and SCN followed by a lowercase letter or X for
# <inttypes.h>, and C23 added PRIB (a newer glibc than the list's defines the PRIb, PRIB and
# SCNb families); Linux adds a SYS_ number per new system call (SYS_futex_wake).
GROWING_MACRO_FAMILIES = re.compile(r"PRI[a-zBX]|SCN[a-zX]|SYS_[a-z]")


def _macro_problem(name: str) -> str:
    if name in MACROS:
        return (f"'{name}' is a macro of the C/C++ standard library, the platform or "
                "CUDA, which would replace it in the header (rename it)")
    if GROWING_MACRO_FAMILIES.match(name):
        return (f"'{name}' begins like the macros the C library and the platform keep "
                "adding (PRI or SCN and a lowercase letter, B or X; SYS_ and a lowercase "
                "letter), which would replace it in the header (rename it)")
    if name.startswith("CUBIE_"):
        return f"'{name}' has the prefix of CuBIE++'s own macros (rename it)"
    return ""


def namespace_problem(namespace: str) -> str:
    """Why `namespace` cannot hold the generated type, or '' when it can: a::b::c of
    identifiers that are neither keywords nor macros, which neither reopen the
    library's namespace (but for cubie::catalogue and what is inside it) nor take the
    name of one that the header's code names."""
    parts = namespace.split("::")
    for part in parts:
        problem = problem_with(part, in_code=False) or _macro_problem(part)
        if problem:
            return f"{problem} (write identifiers joined by ::, e.g. {CATALOGUE})"
    if parts[0] == "cubie" and parts[1:2] != ["catalogue"]:
        return (f"'{namespace}' is inside the library's namespace, where its names would "
                f"clash: use {CATALOGUE} or a namespace of your own")
    for part in parts[1:] if parts[0] == "cubie" else parts:
        if part in LIBRARY_NAMESPACES:
            return (f"'{part}' in '{namespace}' would hide the namespace '{part}' that "
                    "the header's code names (choose another name)")
    return ""
