"""Numba decorator options, in one place.

Every kernel in the package is compiled with ``njit`` from here: cached on disk (``cache=True``),
releasing the GIL so the engine can run chunks on threads (``nogil=True``), and with numpy's error
model (no Python-style zero-division checks in the hot loop; the kernels never divide by zero).
Never ``fastmath``: money is exact integer arithmetic and must stay so.

Small scalar helpers of the round loop also take ``inline="always"`` (numba IR inlining):
``njit(inline="always")`` passes it through with the options above.
"""

import functools

import numba

JIT_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}

njit = functools.partial(numba.njit, **JIT_OPTIONS)
