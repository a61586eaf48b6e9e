"""Events in a definition ([[events]]): read into the model, emitted as event types nested
in the System with an events<...> list, every mistake one line, and a header that compiles
warning-free and models the library's event concept."""

import os
import re
import subprocess

import pytest

from conftest import REPO, run_tool
from cubie_codegen.definition import load
from cubie_codegen.emit import header
from test_output import compiler

BALL = """name = "ball"
[constants]
g = 9.81
[parameters]
e = 0.8
wall = { size = 2, default = [-1, 1] }
[states]
x = 1
v = 0
[drivers]
wind = "sideways push"
[observables]
energy = "v**2/2 + g*x"
[equations]
dx = "v"
dv = "-g + wind"

[[events]]
name = "ground"
condition = "x"
direction = "falling"
action = "affect"
affect = { v = "-e*v", "wall[1]" = "wall[1] + energy", e = "e*wind" }
capacity = 4

[[events]]
name = "walls"
description = "between the walls"
condition = ["x - wall[0]", "x - wall[1]"]

[[events]]
name = "late"
condition = "t - 2"
direction = "rising"
action = "terminate"
"""


def test_events_are_read_in_order(write):
    m = load(write(BALL))
    assert [e.name for e in m.events] == ["ground", "walls", "late"]
    ground, walls, late = m.events
    assert (ground.direction, ground.action, ground.capacity) == ("falling", "affect", 4)
    assert [target for target, _, _ in ground.affects] == ["y[1]", "p[2]", "p[0]"]
    assert (walls.direction, walls.action, walls.capacity) == ("either", "record", 1)
    assert len(walls.conditions) == 2
    assert (late.direction, late.action) == ("rising", "terminate")


def test_event_types_and_their_list_are_emitted(write):
    text = header(load(write(BALL)))
    assert '#include "cubie/events/event_list.hpp"' in text
    assert "struct ground {" in text and "struct walls {" in text and "struct late {" in text
    assert "using events = cubie::events<ground, walls, late>;" in text
    assert "static constexpr cubie::crossing direction = cubie::crossing::falling;" in text
    assert "static constexpr cubie::event_action action = cubie::event_action::terminate;" in text
    # A vector of conditions, and the new values computed before any is assigned.
    assert "CUBIE_HD cubie::vector<T, 2> condition(" in text
    affect = text[text.index("CUBIE_HD void affect("):text.index("struct walls")]
    assignments = [line.strip() for line in affect.splitlines() if line.strip().startswith(("y[", "p["))]
    assert assignments == ["y[1] = a0;", "p[2] = a1;", "p[0] = a2;"]
    assert affect.index("const T a2") < affect.index("y[1] = a0;")
    # Models without events are unchanged: no include of the event headers.
    lorenz = header(load(os.path.join(REPO, "systems", "lorenz.toml")))
    assert "event" not in lorenz


EVENT_GOOD = """[parameters]
k = 1
[constants]
a = 2
[states]
x = 1
[equations]
dx = "-k*x"
[[events]]
name = "half"
condition = "x - 0.5"
"""


def error_of(write, text):
    path = write(text)
    code, out, err = run_tool(path, "-o", path + ".hpp")
    assert code == 2, (out, err)
    assert "Traceback" not in err and err.count("\n") == 1, err
    return err.strip()


def test_a_good_event_generates(write):
    path = write(EVENT_GOOD)
    code, _, err = run_tool(path, "-o", path + ".hpp")
    assert code == 0, err


@pytest.mark.parametrize("change, where, message", [
    (("condition = \"x - 0.5\"\n", ""), ":9:", "event 'half' needs a condition"),
    (('name = "half"\n', ""), ":9:", "event 1 needs a name"),
    (('name = "half"', 'name = "class"'), ":10:", "event name: 'class' is a C\\+\\+ keyword"),
    (('name = "half"', 'name = "capacity"'), ":10:", "clashes with a member of the generated"),
    (('name = "half"', 'name = "a"'), ":10:", "event 'a' has the name of a constant"),
    (('"x - 0.5"', '"x - w"'), ":11:", "undefined name 'w'"),
    (('"x - 0.5"', '[]'), ":11:", "must be an expression string or a non-empty list"),
    (('"x - 0.5"\n', '"x - 0.5"\ndirection = "up"\n'), ":12:", "direction of event 'half' must"),
    (('"x - 0.5"\n', '"x - 0.5"\naction = "stop"\n'), ":12:", "action of event 'half' must"),
    (('"x - 0.5"\n', '"x - 0.5"\ncapacity = -1\n'), ":12:", "capacity of event 'half'"),
    (('"x - 0.5"\n', '"x - 0.5"\nwhen = 1\n'), ":9:", "unknown key 'when' in event 1"),
    (('"x - 0.5"\n', '"x - 0.5"\naction = "affect"\n'), ":12:", "give the new values"),
    (('"x - 0.5"\n', '"x - 0.5"\naffect = { x = "0" }\n'), ":12:", "its action is 'record'"),
    (('"x - 0.5"\n', '"x - 0.5"\naction = "affect"\naffect = { a = "0" }\n'), ":13:",
     "affects 'a', which is neither a state nor a parameter"),
    (('"x - 0.5"\n', '"x - 0.5"\naction = "affect"\naffect = { "x[1]" = "0" }\n'), ":13:",
     "'x' is not an array"),
    (("a = 2", "capacity = 2"), ":4:", "constant 'capacity' would be hidden"),
])
def test_event_mistakes(write, change, where, message):
    text = EVENT_GOOD.replace(*change)
    err = error_of(write, text)
    assert where in err and re.search(message, err), err


def test_two_events_of_one_name(write):
    err = error_of(write, EVENT_GOOD + '[[events]]\nname = "half"\ncondition = "x"\n')
    assert ":13:" in err and "a second event called 'half'" in err, err


def test_events_must_be_tables(write):
    err = error_of(write, 'events = "x"\n' + EVENT_GOOD.split("[[events]]")[0])
    assert "events must be tables of their own" in err, err


@pytest.mark.skipif(compiler() is None, reason="needs g++ and the CUDA toolkit's CCCL headers")
def test_events_compile_without_warnings_and_model_the_concept(write, tmp_path):
    header_path = tmp_path / "cubie" / "catalogue" / "ball.hpp"
    code, _, err = run_tool(write(BALL), "-o", str(header_path))
    assert code == 0, err
    source = tmp_path / "use.cpp"
    source.write_text("""
#include "cubie/catalogue/ball.hpp"
#include "cubie/events/event_list.hpp"
using ball = cubie::catalogue::ball<double>;
static_assert(cubie::event<ball::ground, ball>);
static_assert(cubie::event<ball::walls, ball>);
static_assert(cubie::conditions_of<ball::walls, ball>() == 2);
static_assert(cubie::event<ball::late, ball>);
static_assert(cubie::event_layout<ball, ball::events>::channels == 4);
static_assert(cubie::event_layout<ball, ball::events>::records == 4 + 1 + 1 + 1);
int main() {
    cubie::state_t<ball> y{1, -2};
    cubie::parameters_t<ball> p{0.5, -1, 1};
    const cubie::drivers_t<ball> d{0.5};
    const auto g = ball::walls{}.condition(0.0, y, p, d);  // x - wall[1] = 0
    ball::ground{}.affect(0.0, y, p, d);  // v = 1, wall[1] = 1 + (2 + 9.81), e = 0.25
    return y[1] == 1 && p[0] == 0.25 && p[2] == 1 + (2 + 9.81) && g[0] == 2 && g[1] == 0 &&
                   ball::late{}.condition(3.0, y, p, d) == 1
               ? 0 : 1;
}
""")
    binary = tmp_path / "use"
    result = subprocess.run(
        ["g++", "-std=c++20", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-Wdouble-promotion",
         "-Wshadow", "-I", str(tmp_path), "-I", os.path.join(REPO, "include"), "-isystem",
         compiler(), str(source), "-o", str(binary)],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr[-3000:]
    assert subprocess.run([str(binary)]).returncode == 0
