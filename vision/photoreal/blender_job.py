"""Runs inside Blender (``blender -b --factory-startup --python blender_job.py -- JOB``).

It builds each scene a job describes and renders it with Cycles on the CPU. Everything
it needs is in the job's folder: ``job.json`` (scenes, geometry, materials, camera,
lights, all in metres, decided by ``spec.py``) and the textures it names. It decides
nothing itself: no random numbers, no project imports (Blender's Python has none of
the project's packages), so the same job renders the same frames.

Output per scene (then ``<name>.done``, written last): ``<name>.lin``, scene-linear RGB
(Blender's own OpenEXR render, read back and written as zlib-compressed 16-bit rows,
top row first, scaled so that the brightest 1 % of the frame sits at a quarter of full
scale: the glossy hotspot keeps four times that headroom), and ``<name>.lin.json``
(width, height, scale). Neither Debian's OpenCV wheel nor Blender's Python here reads
or writes OpenEXR with numpy, hence this small format; ``webcam.py`` applies a camera's
exposure, white balance and tone curve.

Then the truth of what a camera could see (``<name>.ids``, and ``<name>.ids-bare`` when
the scene has figures): one more Cycles pass, one sample a pixel and no light, in which
every sticker glows with (its base's number + 1, u, v) and everything else is black. So
each pixel says which sticker it shows and where on the sticker; with the figures
hidden (``-bare``) the same says what the figures cover. ``frames.visibility`` reads
them.
"""

from __future__ import annotations

import array
import json
import math
import sys
import zlib
from pathlib import Path
from typing import Any

import bpy  # type: ignore[import-not-found]
from mathutils import Matrix  # type: ignore[import-not-found]


def _clear() -> None:
    for coll in (bpy.data.objects, bpy.data.meshes, bpy.data.materials, bpy.data.images,
                 bpy.data.lights, bpy.data.cameras):
        for item in list(coll):
            coll.remove(item)


def _material(name: str, spec: dict[str, Any], folder: Path) -> Any:
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes, links = mat.node_tree.nodes, mat.node_tree.links
    bsdf = nodes["Principled BSDF"]
    bsdf.inputs["Roughness"].default_value = spec.get("roughness", 0.5)
    bsdf.inputs["Metallic"].default_value = spec.get("metallic", 0.0)
    bsdf.inputs["Specular"].default_value = spec.get("specular", 0.5)
    if "texture" in spec:
        tex = nodes.new("ShaderNodeTexImage")
        tex.image = bpy.data.images.load(str(folder / spec["texture"]))
        tex.interpolation = "Cubic"
        uv = nodes.new("ShaderNodeUVMap")
        links.new(uv.outputs["UV"], tex.inputs["Vector"])
        links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    elif "wood" in spec:
        # A table top: stretched noise for the grain, two browns mixed by it.
        coord = nodes.new("ShaderNodeTexCoord")
        mapping = nodes.new("ShaderNodeMapping")
        mapping.inputs["Scale"].default_value = (2.0, 60.0, 2.0)
        noise = nodes.new("ShaderNodeTexNoise")
        noise.inputs["Scale"].default_value = 3.0
        noise.inputs["Detail"].default_value = 6.0
        ramp = nodes.new("ShaderNodeValToRGB")
        ramp.color_ramp.elements[0].color = (*spec["wood"][0], 1.0)
        ramp.color_ramp.elements[1].color = (*spec["wood"][1], 1.0)
        links.new(coord.outputs["Object"], mapping.inputs["Vector"])
        links.new(mapping.outputs["Vector"], noise.inputs["Vector"])
        links.new(noise.outputs["Fac"], ramp.inputs["Fac"])
        links.new(ramp.outputs["Color"], bsdf.inputs["Base Color"])
    else:
        bsdf.inputs["Base Color"].default_value = (*spec["color"], 1.0)
    return mat


def _mesh_object(name: str, verts: list, faces: list, uvs: list | None, mat: Any,
                 smooth: bool = False) -> Any:
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata([tuple(v) for v in verts], [], [tuple(f) for f in faces])
    if uvs is not None:
        layer = mesh.uv_layers.new(name="UVMap")
        for poly in mesh.polygons:
            for li in poly.loop_indices:
                layer.data[li].uv = uvs[mesh.loops[li].vertex_index]
    if smooth:
        for poly in mesh.polygons:
            poly.use_smooth = True
    mesh.materials.append(mat)
    mesh.update()
    obj = bpy.data.objects.new(name, mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def _sheet(spec: dict[str, Any], mat: Any, edge: Any) -> None:
    """The printed sheet (or a board's top) as a grid, lifted where the paper curls
    (``z`` per vertex); ``uv``: the part of the texture it shows; ``lift``: a thick
    board's top over the table, its four sides in ``edge``."""
    nx, ny = spec["nx"], spec["ny"]
    x0, y0, x1, y1 = spec["rect"]
    u0, v0, u1, v1 = spec.get("uv", (0.0, 0.0, 1.0, 1.0))
    lift = spec.get("lift", 0.0)
    z = spec["z"]
    verts, uvs = [], []
    for j in range(ny + 1):
        for i in range(nx + 1):
            u, v = i / nx, j / ny
            verts.append((x0 + (x1 - x0) * u, y0 + (y1 - y0) * v, z[j][i] + lift))
            uvs.append((u0 + (u1 - u0) * u, v0 + (v1 - v0) * v))
    faces = [(j * (nx + 1) + i, j * (nx + 1) + i + 1, (j + 1) * (nx + 1) + i + 1,
              (j + 1) * (nx + 1) + i) for j in range(ny) for i in range(nx)]
    _mesh_object("sheet", verts, faces, uvs, mat, smooth=True)
    if lift > 0:
        top = [(x0, y0, lift), (x1, y0, lift), (x1, y1, lift), (x0, y1, lift)]
        bottom = [(x, y, 0.0) for x, y, _ in top]
        sides = [(k, (k + 1) % 4, 4 + (k + 1) % 4, 4 + k) for k in range(4)]
        _mesh_object("board-sides", bottom + top, sides, None, edge)


def _label(spec: dict[str, Any], folder: Path) -> None:
    """A printed label (a marker on white) lying on the table."""
    x0, y0, x1, y1 = spec["rect"]
    z = spec["z"]
    mat = _material("label-" + spec["texture"], {"texture": spec["texture"],
                                                 "roughness": 0.8, "specular": 0.2}, folder)
    _mesh_object("label", [(x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z)],
                 [(0, 1, 2, 3)], [(0, 0), (1, 0), (1, 1), (0, 1)], mat)


def _disc_uvs(verts: list, cx: float, cy: float, r: float) -> list:
    return [((x - cx) / (2 * r) + 0.5, (y - cy) / (2 * r) + 0.5) for x, y, _z in verts]


def _base(b: dict[str, Any], mats: dict[str, Any], sticker: Any) -> Any:
    """A bevelled plastic base (a frustum) with its sticker on top (``sticker`` None:
    none)."""
    n = 64
    cx, cy = b["x"], b["y"]
    r_top, r_bottom = b["r_top"], b["r_bottom"]
    z0 = b.get("z", 0.0)  # what it stands on (a thick board's top)
    h = z0 + b["height"]
    ring = [(math.cos(2 * math.pi * k / n), math.sin(2 * math.pi * k / n)) for k in range(n)]
    verts = [(cx + r_bottom * c, cy + r_bottom * s, z0) for c, s in ring]
    verts += [(cx + r_top * c, cy + r_top * s, h) for c, s in ring]
    faces = [(k, (k + 1) % n, n + (k + 1) % n, n + k) for k in range(n)]
    faces.append(tuple(range(n, 2 * n)))  # the top, under the sticker
    _mesh_object("base", verts, faces, None, mats[b["material"]], smooth=False)
    if sticker is None:  # a piece of one tone all over: its top is the base's own
        return None
    rs = b["r_sticker"]
    sv = [(cx, cy, h + 0.00005)] + [(cx + rs * c, cy + rs * s, h + 0.00005) for c, s in ring]
    sf = [(0, 1 + k, 1 + (k + 1) % n) for k in range(n)]
    return _mesh_object("sticker", sv, sf, _disc_uvs(sv, cx, cy, rs), sticker)


def _primitive(part: dict[str, Any], mat: Any) -> Any:
    kind = part["shape"]
    loc, rot, scale = part["location"], part["rotation"], part["scale"]
    if kind == "cylinder":
        bpy.ops.mesh.primitive_cylinder_add(vertices=24, radius=1.0, depth=2.0)
    elif kind == "cone":
        bpy.ops.mesh.primitive_cone_add(vertices=24, radius1=1.0, radius2=0.35, depth=2.0)
    elif kind == "sphere":
        bpy.ops.mesh.primitive_uv_sphere_add(segments=24, ring_count=12, radius=1.0)
    else:
        bpy.ops.mesh.primitive_cube_add(size=2.0)
    obj = bpy.context.active_object
    obj.location, obj.rotation_euler, obj.scale = loc, rot, scale
    if kind in ("sphere", "cylinder", "cone"):
        bpy.ops.object.shade_smooth()
    obj.data.materials.append(mat)
    return obj


def _camera(spec: dict[str, Any]) -> None:
    cam = bpy.data.cameras.new("camera")
    cam.lens = spec["lens_mm"]
    cam.sensor_width = spec["sensor_mm"]
    cam.sensor_fit = "HORIZONTAL"
    cam.clip_start, cam.clip_end = 0.01, 20.0
    obj = bpy.data.objects.new("camera", cam)
    obj.matrix_world = Matrix(spec["matrix"])
    bpy.context.scene.collection.objects.link(obj)
    bpy.context.scene.camera = obj


def _light(spec: dict[str, Any]) -> None:
    light = bpy.data.lights.new("light", spec["kind"])
    light.energy = spec["power"]
    light.color = spec["color"]
    if spec["kind"] == "AREA":
        light.shape = "RECTANGLE"
        light.size, light.size_y = spec["size"]
    elif spec["kind"] == "POINT":
        light.shadow_soft_size = spec["size"][0]
    elif spec["kind"] == "SPOT":  # sun through a window: a sharp-edged patch
        light.shadow_soft_size = spec["size"][0]
        light.spot_size = math.radians(spec["spot_deg"])
        light.spot_blend = spec.get("blend", 0.05)
    obj = bpy.data.objects.new("light", light)
    obj.matrix_world = Matrix(spec["matrix"])
    bpy.context.scene.collection.objects.link(obj)


def render_scene(scene: dict[str, Any], folder: Path, settings: dict[str, Any]) -> None:
    _clear()
    sc = bpy.context.scene
    sc.render.engine = "CYCLES"
    sc.cycles.device = "CPU"
    sc.cycles.samples = settings["samples"]
    sc.cycles.use_adaptive_sampling = True
    sc.cycles.use_denoising = False  # the camera's own noise follows; no denoiser here
    sc.cycles.max_bounces = 4
    # Blender's default pixel filter, set again: the id pass before (``_id_passes``)
    # narrows it, and a job renders its scenes in one session
    sc.cycles.pixel_filter_type = "BLACKMAN_HARRIS"
    sc.cycles.filter_width = 1.5
    sc.cycles.seed = scene["seed"]
    sc.render.threads_mode = "FIXED"
    sc.render.threads = settings["threads"]
    sc.render.resolution_x, sc.render.resolution_y = scene["size"]
    sc.render.resolution_percentage = 100
    sc.render.film_transparent = False
    # Scene-linear light, unclipped: the webcam model does the camera's exposure.
    sc.render.image_settings.file_format = "OPEN_EXR"
    sc.render.image_settings.color_mode = "RGB"
    sc.render.image_settings.color_depth = "16"
    sc.render.image_settings.exr_codec = "ZIP"
    world = bpy.data.worlds.new("world") if not bpy.data.worlds else bpy.data.worlds[0]
    sc.world = world
    world.use_nodes = True
    bg = world.node_tree.nodes["Background"]
    bg.inputs["Color"].default_value = (*scene["ambient"]["color"], 1.0)
    bg.inputs["Strength"].default_value = scene["ambient"]["strength"]

    mats = {name: _material(name, m, folder) for name, m in scene["materials"].items()}
    _mesh_object("table", *_table_mesh(scene["table"]["rect"]), mats["table"])
    _sheet(scene["sheet"], mats["sheet"], mats["table"])
    for label in scene.get("labels", []):
        _label(label, folder)
    stickers: list[tuple[int, Any]] = []
    figures: list[Any] = []
    for i, b in enumerate(scene["bases"]):
        sticker = None if not b["sticker"] else _material(
            "sticker-" + b["sticker"], {"texture": b["sticker"], "roughness": 0.45}, folder)
        obj = _base(b, mats, sticker)
        if obj is not None:
            stickers.append((i, obj))
        for part in b["figure"]:
            figures.append(_primitive(part, mats[part["material"]]))
    _camera(scene["camera"])
    for light in scene["lights"]:
        _light(light)
    exr = folder / (scene["name"] + ".exr")
    sc.render.filepath = str(exr)
    bpy.ops.render.render(write_still=True)
    _write_linear(exr, folder / (scene["name"] + ".lin"))
    _id_passes(sc, stickers, figures, folder / scene["name"])


def _emission(name: str) -> tuple[Any, Any]:
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    nodes = mat.node_tree.nodes
    nodes.remove(nodes["Principled BSDF"])
    glow = nodes.new("ShaderNodeEmission")
    mat.node_tree.links.new(glow.outputs["Emission"], nodes["Material Output"].inputs[0])
    return mat, glow


def _id_passes(sc: Any, stickers: list[tuple[int, Any]], figures: list[Any],
               stem: Path) -> None:
    """The scene again, as which sticker each pixel shows (see the module's docstring).
    One sample a pixel through a box filter narrower than a pixel: every pixel is one
    ray's value, never a blend of two stickers."""
    black, glow = _emission("id-black")
    glow.inputs["Color"].default_value = (0.0, 0.0, 0.0, 1.0)
    glow.inputs["Strength"].default_value = 0.0
    for obj in list(sc.objects):
        if obj.type == "LIGHT":
            bpy.data.objects.remove(obj)
        elif obj.type == "MESH":
            obj.data.materials.clear()
            obj.data.materials.append(black)
    for i, obj in stickers:
        mat, glow = _emission(f"id-{i}")
        nodes, links = mat.node_tree.nodes, mat.node_tree.links
        uv = nodes.new("ShaderNodeUVMap")
        split = nodes.new("ShaderNodeSeparateXYZ")
        join = nodes.new("ShaderNodeCombineXYZ")
        join.inputs["X"].default_value = float(i + 1)
        links.new(uv.outputs["UV"], split.inputs["Vector"])
        links.new(split.outputs["X"], join.inputs["Y"])
        links.new(split.outputs["Y"], join.inputs["Z"])
        links.new(join.outputs["Vector"], glow.inputs["Color"])
        glow.inputs["Strength"].default_value = 1.0
        obj.data.materials.clear()
        obj.data.materials.append(mat)
    sc.world.node_tree.nodes["Background"].inputs["Strength"].default_value = 0.0
    sc.cycles.samples = 1
    sc.cycles.use_adaptive_sampling = False
    sc.cycles.max_bounces = 0
    sc.cycles.pixel_filter_type = "BOX"
    sc.cycles.filter_width = 0.01
    sc.render.image_settings.color_depth = "32"
    passes = [("", False)] + ([("-bare", True)] if figures else [])
    for suffix, hide in passes:
        for obj in figures:
            obj.hide_render = hide
        exr = stem.with_name(stem.name + ".ids.exr")
        sc.render.filepath = str(exr)
        bpy.ops.render.render(write_still=True)
        w, h, px = _exr_pixels(exr)
        # RGBA float32, Blender's rows (bottom row first): the host turns them over
        stem.with_name(stem.name + ".ids" + suffix).write_bytes(zlib.compress(px.tobytes(), 1))
    stem.with_name(stem.name + ".ids.json").write_text(json.dumps(
        {"width": w, "height": h, "byteorder": sys.byteorder, "rows": "bottom-up",
         "channels": ["base + 1", "u", "v", "alpha"]}))


def _exr_pixels(exr: Path) -> tuple[int, int, array.array]:
    """A rendered OpenEXR file's width, height and RGBA floats (bottom row first); the
    file is removed once read."""
    img = bpy.data.images.load(str(exr))
    w, h = img.size
    px = array.array("f", bytes(4 * 4 * w * h))
    img.pixels.foreach_get(px)
    bpy.data.images.remove(img)
    exr.unlink()
    return w, h, px


def _write_linear(exr: Path, out: Path) -> None:
    w, h, px = _exr_pixels(exr)
    lum = sorted(px[i] + px[i + 1] + px[i + 2] for i in range(0, len(px), 4 * 37))
    top = max(lum[int(len(lum) * 0.99)] / 3, 1e-6)
    k = 0.25 / top * 65535
    rows = []
    for y in range(h - 1, -1, -1):  # Blender's rows run bottom-up
        row = px[y * w * 4:(y + 1) * w * 4]
        vals = array.array("H", (min(65535, int(v * k + 0.5)) if v > 0 else 0
                                 for i, v in enumerate(row) if i % 4 != 3))
        rows.append(vals.tobytes())
    out.write_bytes(zlib.compress(b"".join(rows), 1))
    out.with_suffix(".lin.json").write_text(json.dumps(
        {"width": w, "height": h, "scale": k / 65535, "byteorder": sys.byteorder}))


def _table_mesh(rect: list[float]) -> tuple[list, list, list]:
    x0, y0, x1, y1 = rect
    verts = [(x0, y0, -0.0004), (x1, y0, -0.0004), (x1, y1, -0.0004), (x0, y1, -0.0004)]
    return verts, [(0, 1, 2, 3)], [(0, 0), (1, 0), (1, 1), (0, 1)]


def main(argv: list[str]) -> None:
    folder = Path(argv[argv.index("--") + 1])
    job = json.loads((folder / "job.json").read_text())
    for scene in job["scenes"]:
        done = folder / (scene["name"] + ".done")
        if done.exists():
            continue  # an interrupted job goes on where it stopped
        render_scene(scene, folder, job["settings"])
        done.write_text("")  # after every file the scene leaves (frames.render checks)
        print(f"rendered {scene['name']}", flush=True)


if __name__ == "__main__":
    main(sys.argv)
