import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { TransformControls } from "three/addons/controls/TransformControls.js";
import { RoomEnvironment } from "three/addons/environments/RoomEnvironment.js";
import { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
import {
  BlockedMediaError,
  disposeObject,
  loadImagePlane,
  loadModel,
  placeholder,
} from "./scene-loaders.ts";
import {
  DEFAULT_BACKGROUND,
  type ItemKind,
  type Placement,
  type SceneCamera,
  type TransformMode,
  type Vec3,
} from "./scene-state.ts";

/** One item as the view shows it. */
export interface SceneViewItem {
  key: string;
  kind: ItemKind;
  url: string;
  placement: Placement;
}

/** What the user did in the view; placements and the camera arrive when a gesture ends. */
export interface SceneViewEvents {
  select(key: string | null): void;
  place(key: string, placement: Placement): void;
  look(camera: SceneCamera): void;
  /** An item's media finished loading (`error` null) or failed; `url` says which media. */
  loaded(key: string, url: string, error: string | null): void;
}

export interface SceneView {
  sync(items: readonly SceneViewItem[]): void;
  select(key: string | null): void;
  setMode(mode: TransformMode): void;
  setLens(fovDegrees: number): void;
  setBackground(color: string): void;
  setCamera(camera: SceneCamera): void;
  camera(): SceneCamera;
  /** A PNG of the current view at `size`, without the grid and the gizmo. */
  capture(size: { width: number; height: number }): Promise<Blob>;
  dispose(): void;
}

interface Entry {
  url: string;
  root: THREE.Group;
}

const near = (a: readonly number[], b: readonly number[]) =>
  a.every((value, index) => Math.abs(value - (b[index] ?? 0)) < 1e-3);
const vec = (v: THREE.Vector3 | THREE.Euler): Vec3 => [v.x, v.y, v.z];
/** A camera commit waits for a pause, so a burst of wheel steps is one edit. */
const LOOK_SETTLE_MS = 250;

/**
 * The three.js side of the scene composer, mounted into `host`: orbit camera, transform
 * gizmo on the selected item, click to pick. It renders on demand (a change schedules one
 * frame), never in a loop. Throws when the browser has no WebGL.
 */
export function createSceneView(host: HTMLElement, events: SceneViewEvents): SceneView {
  const renderer = new THREE.WebGLRenderer({ antialias: true });
  const canvas = renderer.domElement;
  const scene = new THREE.Scene();
  const background = new THREE.Color(DEFAULT_BACKGROUND);
  scene.background = background;
  const pmrem = new THREE.PMREMGenerator(renderer);
  scene.environment = pmrem.fromScene(new RoomEnvironment(), 0.04).texture;
  const sun = new THREE.DirectionalLight(0xffffff, 1.2);
  sun.position.set(2, 4, 3);
  scene.add(sun);
  const grid = new THREE.GridHelper(12, 24, 0x4a4a56, 0x2e2e36);
  scene.add(grid);
  const camera = new THREE.PerspectiveCamera(27, 16 / 9, 0.05, 200);
  const orbit = new OrbitControls(camera, canvas);
  const gizmo = new TransformControls(camera, canvas);
  gizmo.setSize(1.2);
  scene.add(gizmo.getHelper());
  const gltf = new GLTFLoader();
  const textures = new THREE.TextureLoader();
  const entries = new Map<string, Entry>();
  let selected: string | null = null;
  let disposed = false;

  let frame = 0;
  const render = () => {
    frame = 0;
    if (!disposed) renderer.render(scene, camera);
  };
  const requestRender = () => {
    if (!frame && !disposed) frame = requestAnimationFrame(render);
  };
  const currentCamera = (): SceneCamera => ({
    position: vec(camera.position),
    target: vec(orbit.target),
  });

  let settle: ReturnType<typeof setTimeout> | undefined;
  orbit.addEventListener("change", requestRender);
  orbit.addEventListener("start", () => clearTimeout(settle));
  orbit.addEventListener("end", () => {
    clearTimeout(settle);
    settle = setTimeout(() => events.look(currentCamera()), LOOK_SETTLE_MS);
  });
  gizmo.addEventListener("change", requestRender);
  gizmo.addEventListener("dragging-changed", (event) => {
    orbit.enabled = !event.value;
    const object = gizmo.object;
    const key = object?.userData.sceneKey as string | undefined;
    if (event.value || !object || !key) return;
    events.place(key, {
      position: vec(object.position),
      rotation: vec(object.rotation),
      scale: vec(object.scale),
    });
  });

  // A click (not a drag, not on the gizmo) picks the item under the pointer, or none.
  let down: { x: number; y: number; onGizmo: boolean } | null = null;
  const onPointerDown = (event: PointerEvent) => {
    down = { x: event.clientX, y: event.clientY, onGizmo: gizmo.dragging || gizmo.axis !== null };
  };
  const onPointerUp = (event: PointerEvent) => {
    const start = down;
    down = null;
    if (!start || start.onGizmo) return;
    if (Math.hypot(event.clientX - start.x, event.clientY - start.y) > 4) return;
    const rect = canvas.getBoundingClientRect();
    const pointer = new THREE.Vector2(
      ((event.clientX - rect.left) / rect.width) * 2 - 1,
      -((event.clientY - rect.top) / rect.height) * 2 + 1,
    );
    const raycaster = new THREE.Raycaster();
    raycaster.setFromCamera(pointer, camera);
    const roots = [...entries.values()].map((entry) => entry.root).filter((root) => root.visible);
    let hit: THREE.Object3D | null = raycaster.intersectObjects(roots, true)[0]?.object ?? null;
    while (hit && hit.userData.sceneKey === undefined) hit = hit.parent;
    const key = (hit?.userData.sceneKey as string | undefined) ?? null;
    view.select(key);
    events.select(key);
  };
  canvas.addEventListener("pointerdown", onPointerDown);
  canvas.addEventListener("pointerup", onPointerUp);

  const resize = () => {
    const width = Math.max(1, host.clientWidth);
    const height = Math.max(1, host.clientHeight);
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    camera.updateProjectionMatrix();
    render();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(host);
  renderer.setPixelRatio(Math.min(globalThis.devicePixelRatio || 1, 2));
  host.append(canvas);

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    if (gizmo.object === entry.root) gizmo.detach();
    disposeObject(entry.root);
    entries.delete(key);
  };

  const add = (item: SceneViewItem): Entry => {
    const root = new THREE.Group();
    root.userData.sceneKey = item.key;
    const stand = placeholder();
    root.add(stand);
    scene.add(root);
    const entry = { url: item.url, root };
    entries.set(item.key, entry);
    const load =
      item.kind === "model" ? loadModel(item.url, gltf) : loadImagePlane(item.url, textures);
    load.then(
      (content) => {
        if (disposed || entries.get(item.key) !== entry) return disposeObject(content);
        disposeObject(stand);
        root.add(content);
        events.loaded(item.key, item.url, null);
        requestRender();
      },
      (error: unknown) => {
        if (disposed || entries.get(item.key) !== entry) return;
        console.error("Scene item failed to load", item.url, error);
        const message =
          error instanceof BlockedMediaError
            ? error.message
            : item.kind === "model"
              ? "Model failed to load"
              : "Image failed to load";
        events.loaded(item.key, item.url, message);
      },
    );
    return entry;
  };

  const view: SceneView = {
    sync(items) {
      const wanted = new Set(items.map((item) => item.key));
      for (const key of [...entries.keys()]) if (!wanted.has(key)) remove(key);
      for (const item of items) {
        let entry = entries.get(item.key);
        if (entry && entry.url !== item.url) {
          remove(item.key);
          entry = undefined;
        }
        entry ??= add(item);
        const { root } = entry;
        // The gizmo owns the object while the user drags it.
        if (gizmo.dragging && gizmo.object === root) continue;
        root.position.fromArray(item.placement.position);
        root.rotation.fromArray(item.placement.rotation);
        root.scale.fromArray(item.placement.scale);
        root.visible = !item.placement.hidden;
      }
      view.select(selected);
      requestRender();
    },
    select(key) {
      selected = key;
      const root = key ? entries.get(key)?.root : undefined;
      if (root?.visible) {
        if (gizmo.object !== root) gizmo.attach(root);
      } else if (gizmo.object) gizmo.detach();
      requestRender();
    },
    setMode(mode) {
      gizmo.setMode(mode);
      requestRender();
    },
    setLens(fov) {
      if (camera.fov === fov) return;
      camera.fov = fov;
      camera.updateProjectionMatrix();
      requestRender();
    },
    setBackground(color) {
      background.set(color);
      requestRender();
    },
    setCamera(next) {
      const now = currentCamera();
      if (near(now.position, next.position) && near(now.target, next.target)) return;
      camera.position.fromArray(next.position);
      orbit.target.fromArray(next.target);
      orbit.update();
      requestRender();
    },
    camera: currentCamera,
    async capture({ width, height }) {
      const size = renderer.getSize(new THREE.Vector2());
      const ratio = renderer.getPixelRatio();
      const helper = gizmo.getHelper();
      const helperShown = helper.visible;
      grid.visible = false;
      helper.visible = false;
      renderer.setPixelRatio(1);
      renderer.setSize(width, height, false);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
      renderer.render(scene, camera);
      // The bitmap is copied when toBlob is called, so the view can be restored at once.
      const blob = new Promise<Blob>((resolve, reject) =>
        canvas.toBlob((made) => (made ? resolve(made) : reject(new Error("No PNG"))), "image/png"),
      );
      grid.visible = true;
      helper.visible = helperShown;
      renderer.setPixelRatio(ratio);
      renderer.setSize(size.x, size.y, false);
      camera.aspect = size.x / size.y;
      camera.updateProjectionMatrix();
      render();
      return blob;
    },
    dispose() {
      disposed = true;
      cancelAnimationFrame(frame);
      clearTimeout(settle);
      observer.disconnect();
      canvas.removeEventListener("pointerdown", onPointerDown);
      canvas.removeEventListener("pointerup", onPointerUp);
      gizmo.detach();
      gizmo.dispose();
      orbit.dispose();
      for (const key of [...entries.keys()]) remove(key);
      grid.dispose();
      scene.environment?.dispose();
      pmrem.dispose();
      renderer.dispose();
      renderer.forceContextLoss();
      canvas.remove();
    },
  };
  return view;
}
