"""Route models made once per test process, not once per app.

A server test builds a whole app, and FastAPI builds every route's pydantic models again
for each app (at ``include_router``): about 0.2 s of CPU an app, most of the time of a
short test.  A served process builds its app once, so nothing of this is the server's
own cost.  ``reuse_route_models`` keeps, for the test process, the two things FastAPI
derives from code that does not change between apps:

- the ``TypeAdapter`` of a field, keyed by everything it is made from (the annotation, its
  metadata, the field's attributes, the config), and reused for an equal field;
- an endpoint's or dependency's signature with its string annotations evaluated.

Both are read-only once made.  Each app still gets its own routes, dependants and
fields; where FastAPI's internals are not as expected, nothing is patched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def reuse_route_models() -> bool:
    """Patch FastAPI (this process only) to reuse field adapters and signatures; True
    when both patches took."""
    try:
        from fastapi._compat import v2
        from fastapi.dependencies import utils
    except ImportError:
        return False
    model_field = getattr(v2, "ModelField", None)
    made = getattr(model_field, "__post_init__", None)
    describe = getattr(v2, "asdict", None)
    signature = getattr(utils, "_get_signature", None)
    if made is None or describe is None or signature is None or model_field is None:
        return False
    if getattr(made, "reused", False):
        return True
    adapters: dict[object, object] = {}

    def post_init(field: Any) -> None:
        described = describe(field.field_info)
        try:
            config = None if field.config is None else tuple(sorted(field.config.items()))
            key = (field.mode, config, described["annotation"], tuple(described["metadata"]),
                   repr(sorted(described["attributes"].items())))
            hash(key)
        except TypeError:   # something unhashable: made as FastAPI makes it
            made(field)
            return
        adapter = adapters.get(key)
        if adapter is None:
            made(field)
            adapters[key] = field._type_adapter
        else:
            field._type_adapter = adapter

    post_init.reused = True  # type: ignore[attr-defined]
    model_field.__post_init__ = post_init
    utils._get_signature = _remembered(signature)
    return True


def _remembered(signature: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``signature`` once per callable (a callable that cannot be a key: every time)."""
    known: dict[object, object] = {}

    def get(call: Any) -> Any:
        try:
            return known[call]
        except KeyError:
            known[call] = found = signature(call)
            return found
        except TypeError:
            return signature(call)

    return get
