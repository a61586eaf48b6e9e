#!/usr/bin/env python3
"""Checks the Rosenbrock tableaus, as written in the C++ headers, in 50-digit arithmetic
(check_rosenbrock_tableau in C++ stops at the trees of order 4).

Each header include/cubie/algorithms/rosenbrock/<method>.hpp holds the transformed form of
Hairer & Wanner (Solving ODEs II, IV.7, (7.25)): gamma, a, c, alpha, gamma_sum, m, m_hat. This
script converts it back to the original form,

    Gamma = (diag(1/gamma) - c)^-1,   (alpha_ij) = a Gamma,   b = m Gamma,   b_hat = m_hat Gamma,

and verifies:

  * a and c are strictly lower triangular and gamma > 0;
  * alpha_i = sum_j alpha_ij and gamma_sum_i = sum_j gamma_ij;
  * the order conditions sum_i b_i Phi_i(tau) = 1 / gamma(tau) for every rooted tree tau up to
    the stated order, for b and for b_hat up to the embedded order (Hairer & Wanner IV.7,
    Table 7.1: Phi takes beta_ij = alpha_ij + gamma_ij, diagonal included, at a vertex with
    one son and alpha_ij at a vertex with several);
  * the order conditions of W-methods for b up to the stated w_order (1 where a header states
    none: every consistent method has W-order 1), see w_residuals;
  * that some condition one order beyond fails, so the stated orders (Rosenbrock and W) are
    exact;
  * R(inf) = 1 - b^T B^-1 1 = 0 (B = (beta_ij)) for the methods stated L-stable, R being the
    stability function of y' = lambda y;
  * for the methods transcribed from a source in another form (PUBLISHED), that the header's
    coefficients give back the published original form.

The W-order of b_hat is reported, not checked.

Residuals are relative to sum_i |b_i Phi_i(tau)|. The sources give 16 or 17 significant
digits, so a consistent tableau leaves residuals below 1e-14 and a wrong digit far above.

Usage: python3 tests/reference/check_rosenbrock_conditions.py   (exit status 1 on failure)
"""

import pathlib
import re
import sys

from mpmath import matrix, mp, mpf, sqrt

from check_dense_output_conditions import parse_initializer, rooted_trees

mp.dps = 50
TOLERANCE = mpf("1e-13")
HEADERS = pathlib.Path(__file__).resolve().parents[2] / "include/cubie/algorithms/rosenbrock"
# Method and whether it is stated L-stable (R(inf) = 0).
METHODS = {"ros3p": False, "rodas3p": True, "rodas4": True, "rodas5p": True,
           "rosenbrock23": True, "ros34pw2": True, "ros34pw3": False, "rodas23w": True}


def rosenbrock23_published():
    """Shampine & Reichelt's ode23s (SIAM J. Sci. Comput. 18(1), 1997) in Hairer and Wanner's
    original form. With d = 1/(2 + sqrt 2), e32 = 6 + sqrt 2, W = I - h d J, T = f_t:

        W k1 = F0 + h d T,                          F0 = f(t, y)
        W (k2 - k1) = F1 - k1,                      F1 = f(t + h/2, y + h/2 k1)
        y_new = y + h k2
        W k3 = F2 - e32 (k2 - F1) - 2 (k1 - F0) + h d T,   F2 = f(t + h, y_new)
        error = h/6 (k1 - 2 k2 + k3)

    With K_i = h k_i: the first line is stage 1 with gamma = gamma_1 = d. The second gives
    W k2 = F1 - h d J k1, so alpha_21 = 1/2, gamma_21 = -d. From the first two lines,
    k1 - F0 = h d (J k1 + T) and k2 - F1 = h d J (k2 - k1), so the third is
    W K3 = h F2 + h J ((e32 - 2) d K1 - e32 d K2) - d h^2 T: alpha_32 = 1 (F2 is f at y_new),
    gamma_31 = (e32 - 2) d, gamma_32 = -e32 d and gamma_3 = -d. The solution is y + K2,
    b = (0, 1, 0); the error estimate is the difference to the order-3 solution
    y_new + (K1 - 2 K2 + K3)/6, b_hat = (1/6, 2/3, 1/6). These relations use only W, not J,
    so they hold with J replaced by any matrix: ode23s is this method as a W-method.
    """
    d, e32 = 1 / (2 + sqrt(2)), 6 + sqrt(2)
    gamma = [[d, 0, 0], [-d, d, 0], [(e32 - 2) * d, -e32 * d, d]]
    alpha = [[0, 0, 0], [mpf(1) / 2, 0, 0], [0, 1, 0]]
    return gamma, alpha, [0, 1, 0], [mpf(1) / 6, mpf(2) / 3, mpf(1) / 6]


def rang_angermann(gamma, gamma_lower, alpha_lower, b, b_hat):
    """Rang & Angermann's tables (BIT 45 (2005) 761-787) give Gamma and (alpha_ij) below the
    diagonal row by row; the 17-digit values are PETSc's TSROSWRA34PW2 and OrdinaryDiffEq.jl's
    ROS34PW2Tableau/ROS34PW3Tableau, which agree with each other."""
    s = len(b)
    g = [[mpf(0)] * s for _ in range(s)]
    a = [[mpf(0)] * s for _ in range(s)]
    k = 0
    for i in range(s):
        g[i][i] = mpf(gamma)
        for j in range(i):
            g[i][j], a[i][j] = mpf(gamma_lower[k]), mpf(alpha_lower[k])
            k += 1
    return g, a, [mpf(x) for x in b], [mpf(x) for x in b_hat]


PUBLISHED = {
    "rosenbrock23": rosenbrock23_published,
    "ros34pw2": lambda: rang_angermann(
        "4.3586652150845900e-01",
        ["-8.7173304301691801e-01", "-9.0338057013044082e-01", "5.4180672388095326e-02",
         "2.4212380706095346e-01", "-1.2232505839045147e+00", "5.4526025533510214e-01"],
        ["8.7173304301691801e-01", "8.4457060015369423e-01", "-1.1299064236484185e-01",
         "0", "0", "1"],
        ["2.4212380706095346e-01", "-1.2232505839045147e+00", "1.5452602553351020e+00",
         "4.3586652150845900e-01"],
        ["3.7810903145819369e-01", "-9.6042292212423178e-02", "5.0000000000000000e-01",
         "2.1793326075422950e-01"]),
    "ros34pw3": lambda: rang_angermann(
        "1.0685790213016289",
        ["-2.5155456020628817", "-8.7991339217106512e-01", "-9.6014187766190695e-01",
         "-4.1731389379448741e-01", "4.1091047035857703e-01", "-1.3558873204765276"],
        ["2.5155456020628817", "5.0777280103144085e-01", "7.5e-01",
         "1.3959081404277204e-01", "-3.3111001065419338e-01", "8.2040559712714178e-01"],
        ["2.2047681286931747e-01", "2.7828278331185935e-03", "7.1844787635140066e-03",
         "7.6955588053404989e-01"],
        ["3.1300297285209688e-01", "-2.8946895245112692e-01", "9.7646597959903003e-01", "0"]),
}


def read_tableau(method):
    """The members of <method>_tableau as written in its header; a tableau derived from
    another's starts from the base's members, and a member may name one of the base's."""
    source = (HEADERS / f"{method}.hpp").read_text()
    match = re.search(rf"struct {method}_tableau(?: : (\w+)_tableau)? {{(.*?)\n}};", source, re.S)
    base, body = match.group(1), re.sub(r"//[^\n]*", "", match.group(2))
    members = dict(read_tableau(base)) if base else {}
    inherited = dict(members)
    for kind, name, initializer in re.findall(
            r"static constexpr (int|double) (\w+)(?:\[\d+\])* = (.*?);", body, re.S):
        named = re.fullmatch(r"\w+_tableau::(\w+)", initializer.strip())
        if named:
            members[name] = inherited[named.group(1)]
            continue
        elements = re.findall(r"base::(\w+)\[(\d+)\]", initializer)
        if elements:
            members[name] = [inherited[member][int(k)] for member, k in elements]
            continue
        value = parse_initializer(initializer, members)
        members[name] = int(value) if kind == "int" else value
    return members


def original_form(t):
    s, gamma = t["stages"], t["gamma"]
    inverse = matrix(s, s)
    for i in range(s):
        for j in range(s):
            inverse[i, j] = (1 / gamma if i == j else 0) - t["c"][i][j]
    big_gamma = inverse ** -1
    a = matrix(t["a"])
    alpha = a * big_gamma
    b = [sum(t["m"][k] * big_gamma[k, j] for k in range(s)) for j in range(s)]
    b_hat = [sum(t["m_hat"][k] * big_gamma[k, j] for k in range(s)) for j in range(s)]
    return big_gamma, alpha, b, b_hat


def densities(trees):
    """gamma(tau) of every tree: its order times its subtrees' densities."""
    result = []
    for order, children in trees:
        value = order
        for child in children:
            value *= result[child]
        result.append(value)
    return result


def residual(weights, vector, expected):
    terms = [weights[i] * vector[i] for i in range(len(weights))]
    return abs(sum(terms) - expected) / max(1, sum(abs(x) for x in terms))


def order_residuals(weights, alpha, beta, trees, max_order):
    """Largest residual among the trees of each order up to max_order."""
    s = len(weights)
    density = densities(trees)
    phi, worst = [], {}
    for index, (order, children) in enumerate(trees):
        if order > max_order:
            break
        if not children:
            vector = [mpf(1)] * s
        elif len(children) == 1:
            child = children[0]
            vector = [sum(beta[i, j] * phi[child][j] for j in range(s)) for i in range(s)]
        else:
            vector = [mpf(1)] * s
            for child in children:
                vector = [vector[i] * sum(alpha[i, j] * phi[child][j] for j in range(s))
                          for i in range(s)]
        phi.append(vector)
        worst[order] = max(worst.get(order, mpf(0)),
                           residual(weights, vector, mpf(1) / density[index]))
    return worst


def w_residuals(weights, alpha, big_gamma, trees, max_order):
    """Largest residual among the W-trees of each order up to max_order.

    A W-method is the method with J replaced by an arbitrary matrix A (Hairer & Wanner IV.7,
    "W-methods"; Steihaug & Wolfbrandt 1979): k_i = h f(y + sum_j alpha_ij k_j)
    + h A sum_{j<=i} gamma_ij k_j. Its local error expands over the rooted trees whose vertices
    with one son are either meagre (a derivative of f: weight alpha_ij) or fat (the matrix A:
    weight gamma_ij, diagonal included); a vertex with several sons is meagre (A is linear) and
    a leaf is f. The exact solution has no A in it: a tree with a fat vertex has the condition
    sum_i b_i Phi_i = 0, a tree of meagre vertices alone the usual 1 / gamma(tau). Summing
    over the labellings of one tree gives its Rosenbrock condition (beta = alpha + Gamma), so
    W-order p implies Rosenbrock order p. There are 1, 3, 8, 21, 58 conditions up to order
    1, 2, 3, 4, 5.
    """
    s = len(weights)
    density = densities(trees)

    def times(matrix_, vector):
        return [sum(matrix_[i, j] * vector[j] for j in range(s)) for i in range(s)]

    labelled, worst = [], {}
    for index, (order, children) in enumerate(trees):
        if order > max_order:
            break
        if not children:
            labellings = [([mpf(1)] * s, False)]
        elif len(children) == 1:
            labellings = []
            for vector, fat in labelled[children[0]]:
                labellings.append((times(alpha, vector), fat))
                labellings.append((times(big_gamma, vector), True))
        else:
            labellings = [([mpf(1)] * s, False)]
            for child in children:
                labellings = [([product[i] * son[i] for i in range(s)], fat or son_fat)
                              for product, fat in labellings
                              for son, son_fat in ((times(alpha, v), f)
                                                   for v, f in labelled[child])]
        labelled.append(labellings)
        for vector, fat in labellings:
            expected = mpf(0) if fat else mpf(1) / density[index]
            worst[order] = max(worst.get(order, mpf(0)), residual(weights, vector, expected))
    return worst


def w_condition_count(trees, max_order):
    """Number of W-trees up to max_order (1, 3, 8, 21, ...)."""
    counts = []
    for order, children in trees:
        if order > max_order:
            break
        if not children:
            n = 1
        elif len(children) == 1:
            n = 2 * counts[children[0]]
        else:
            n = 1
            for child in children:
                n *= counts[child]
        counts.append(n)
    return sum(counts)


def attained(worst):
    """The largest order up to which every residual is within TOLERANCE."""
    order = 0
    while order + 1 in worst and worst[order + 1] <= TOLERANCE:
        order += 1
    return order


def compare_with_published(method, big_gamma, alpha, b, b_hat):
    """Largest differences between the header's original form and the published one: of
    Gamma and (alpha_ij), and of b and b_hat."""
    gamma_p, alpha_p, b_p, b_hat_p = PUBLISHED[method]()
    s = len(b)
    stages = max(max(abs(big_gamma[i, j] - gamma_p[i][j]), abs(alpha[i, j] - alpha_p[i][j]))
                 for i in range(s) for j in range(s))
    weights = max(max(abs(b[i] - b_p[i]), abs(b_hat[i] - b_hat_p[i])) for i in range(s))
    return stages, weights


def check(method, l_stable, trees):
    t = read_tableau(method)
    s, p, q = t["stages"], t["order"], t["embedded_order"]
    w = t.get("w_order", 1)
    failures = []
    if not t["gamma"] > 0:
        failures.append("gamma is not positive")
    if any(t[name][i][j] != 0 for name in ("a", "c") for i in range(s) for j in range(i, s)):
        failures.append("a or c is not strictly lower triangular")
    if not 1 <= w <= p:
        failures.append(f"w_order {w} is not within 1 and the order {p}")

    big_gamma, alpha, b, b_hat = original_form(t)
    beta = alpha + big_gamma
    sums = max(max(abs(sum(alpha[i, j] for j in range(s)) - t["alpha"][i]),
                   abs(sum(big_gamma[i, j] for j in range(s)) - t["gamma_sum"][i]))
               for i in range(s))
    if sums > TOLERANCE:
        failures.append(f"alpha or gamma_sum differ from the row sums (by {float(sums):.1e})")

    report = []
    for label, weights, stated in (("b", b, p), ("b_hat", b_hat, q)):
        worst = order_residuals(weights, alpha, beta, trees, stated + 1)
        within = max(worst[order] for order in range(1, stated + 1))
        if within > TOLERANCE:
            failures.append(f"{label}: order conditions up to order {stated} fail "
                            f"(residual {float(within):.1e})")
        if worst[stated + 1] <= TOLERANCE:
            failures.append(f"{label} also has order {stated + 1}: its order is understated")
        report.append(f"{label} order {stated} to {float(within):.1e}, "
                      f"order {stated + 1} off by {float(worst[stated + 1]):.1e}")

    worst = w_residuals(b, alpha, big_gamma, trees, w + 1)
    within = max(worst[order] for order in range(1, w + 1))
    if within > TOLERANCE:
        failures.append(f"b: W-order conditions up to order {w} fail (residual {float(within):.1e})")
    if worst[w + 1] <= TOLERANCE:
        failures.append(f"b also has W-order {w + 1}: its w_order is understated")
    stated_w = "w_order" if "w_order" in t else "w_order (default)"
    count = w_condition_count(trees, w)
    report.append(f"{stated_w} {w} ({count} condition{'s' if count > 1 else ''}) to "
                  f"{float(within):.1e}, W-order {w + 1} off by {float(worst[w + 1]):.1e}")
    embedded_w = attained(w_residuals(b_hat, alpha, big_gamma, trees, q + 1))
    report.append(f"b_hat W-order {embedded_w}")

    if method in PUBLISHED:
        stages, weights = compare_with_published(method, big_gamma, alpha, b, b_hat)
        if max(stages, weights) > TOLERANCE:
            failures.append(f"differs from the published coefficients (Gamma, alpha by "
                            f"{float(stages):.1e}; b, b_hat by {float(weights):.1e})")
        report.append(f"published form to {float(max(stages, weights)):.1e}")

    ones = matrix([[1]] * s)
    r_inf = 1 - (matrix([b]) * (beta ** -1) * ones)[0, 0]
    if l_stable and abs(r_inf) > TOLERANCE:
        failures.append(f"R(inf) = {float(r_inf):.3e}, not 0")

    print(f"{method:12s} {s} stages: {'; '.join(report)}; R(inf) = {float(r_inf):.3e}")
    for failure in failures:
        print(f"  FAIL: {failure}")
    return not failures


def check_rodas23w():
    """Rodas23W is Rodas3P with its two solutions exchanged (OrdinaryDiffEq.jl runs both on
    Rodas3PTableau and swaps them at the end of a Rodas23W step)."""
    w, p = read_tableau("rodas23w"), read_tableau("rodas3p")
    same = all(w[k] == p[k] for k in ("stages", "gamma", "a", "c", "alpha", "gamma_sum"))
    swapped = w["m"] == p["m_hat"] and w["m_hat"] == p["m"]
    orders = (w["order"], w["embedded_order"]) == (p["embedded_order"], p["order"])
    ok = same and swapped and orders
    print(f"rodas23w     = rodas3p with the solutions exchanged: {'yes' if ok else 'no'}")
    if not ok:
        print("  FAIL: rodas23w is not rodas3p's stages with m and m_hat exchanged")
    return ok


def main():
    trees = rooted_trees(6)
    results = [check(method, l_stable, trees) for method, l_stable in METHODS.items()]
    results.append(check_rodas23w())
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
