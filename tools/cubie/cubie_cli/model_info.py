"""What the cubie command needs to know of a model: its C++ type and the names and
defaults of its variables. Read from the definition by the code generator when a solver is
built, and kept beside the solver in the cache, so that a cached run needs no SymPy."""

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class ModelInfo:
    name: str  # the C++ type: namespace::name<T>
    namespace: str
    states: list  # labels, in the system's order: "x", or "u[3]" for an array's element
    state_defaults: list  # the default initial values
    parameters: list
    parameter_defaults: list
    observables: list
    drivers: list

    @classmethod
    def of(cls, model) -> "ModelInfo":
        """From a cubie_codegen Model."""
        return cls(model.name, model.namespace,
                   [e.label for e in model.states], [float(e.default) for e in model.states],
                   [e.label for e in model.parameters],
                   [float(e.default) for e in model.parameters],
                   [e.label for e, _ in model.observables], [e.label for e in model.drivers])

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> "ModelInfo":
        return cls(**data)

    def cxx_type(self, precision: str) -> str:
        return f"{self.namespace}::{self.name}<{precision}>"

    def elements(self, name: str, labels: list) -> list:
        """The indices into `labels` that `name` stands for: the variable itself, or every
        element of an array ("u" for u[0], u[1], ...); empty when it names none."""
        if name in labels:
            return [labels.index(name)]
        return [k for k, label in enumerate(labels) if label.startswith(name + "[")]

    @staticmethod
    def names(labels: list) -> list:
        """Labels with each array given once, by its name ("u" for u[0], u[1], ...)."""
        seen = []
        for label in labels:
            name = label.split("[")[0]
            if name not in seen:
                seen.append(name)
        return seen
