import { useEffect, useRef, useState } from "react";
import { DownloadLink } from "./DownloadLink.tsx";
import { disposeMeshes } from "./dispose-three.ts";
import {
  describeMeta,
  formatOf,
  META_ERRORS,
  type MediaMeta,
  type ViewerProps,
} from "./media-meta.ts";

type Stage = "still" | "loading" | "ready" | "error";

/**
 * Load three.js (only now, on "View in 3D"), render the GLB into `host` with orbit controls,
 * and return how to tear it all down. Rendering is on demand (on orbit/resize): no loop runs.
 */
async function mountScene(host: HTMLElement, url: string, signal: AbortSignal) {
  const [THREE, { GLTFLoader }, { OrbitControls }, { RoomEnvironment }] = await Promise.all([
    import("three"),
    import("three/addons/loaders/GLTFLoader.js"),
    import("three/addons/controls/OrbitControls.js"),
    import("three/addons/environments/RoomEnvironment.js"),
  ]);
  if (signal.aborted) throw signal.reason;
  const renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true });
  const scene = new THREE.Scene();
  const pmrem = new THREE.PMREMGenerator(renderer);
  const cleanups: (() => void)[] = [];
  const dispose = () => {
    for (const cleanup of cleanups) cleanup();
    disposeMeshes(scene);
    scene.environment?.dispose();
    pmrem.dispose();
    renderer.dispose();
    renderer.forceContextLoss();
    renderer.domElement.remove();
  };
  try {
    renderer.setPixelRatio(Math.min(globalThis.devicePixelRatio || 1, 2));
    renderer.toneMapping = THREE.ACESFilmicToneMapping;
    scene.environment = pmrem.fromScene(new RoomEnvironment(), 0.04).texture;
    const camera = new THREE.PerspectiveCamera(35, 1, 0.01, 1000);
    const manager = new THREE.LoadingManager();
    const loader = new GLTFLoader(manager);
    const abort = () => manager.abort();
    signal.addEventListener("abort", abort);
    cleanups.push(() => signal.removeEventListener("abort", abort));
    const gltf = await loader.loadAsync(url);
    if (signal.aborted) throw signal.reason;
    const model = gltf.scene;
    scene.add(model);

    const box = new THREE.Box3().setFromObject(model);
    const size = box.getSize(new THREE.Vector3()).length() || 1;
    model.position.sub(box.getCenter(new THREE.Vector3()));
    camera.near = size / 100;
    camera.far = size * 100;
    camera.position.set(size * 0.55, size * 0.35, size * 0.95);
    const controls = new OrbitControls(camera, renderer.domElement);
    const render = () => renderer.render(scene, camera);
    const resize = () => {
      const width = Math.max(1, host.clientWidth);
      const height = Math.max(1, host.clientHeight);
      renderer.setSize(width, height, false);
      camera.aspect = width / height;
      camera.updateProjectionMatrix();
      render();
    };
    controls.addEventListener("change", render);
    const observer = new ResizeObserver(resize);
    observer.observe(host);
    cleanups.push(
      () => observer.disconnect(),
      () => controls.dispose(),
    );
    host.append(renderer.domElement);
    resize();

    let triangles = 0;
    model.traverse((object) => {
      const mesh = object as import("three").Mesh;
      if (!mesh.isMesh) return;
      const count = mesh.geometry.index?.count ?? mesh.geometry.attributes.position?.count ?? 0;
      triangles += Math.floor(count / 3);
    });
    return { dispose, triangles };
  } catch (error) {
    dispose();
    throw error;
  }
}

/** A 3D result: its snapshot until "View in 3D", then an orbitable GLB view. */
export function ModelViewer({ url, still }: ViewerProps) {
  const [stage, setStage] = useState<Stage>("still");
  const [meta, setMeta] = useState<MediaMeta>(() => ({ format: formatOf(url) }));
  const hostRef = useRef<HTMLDivElement>(null);
  const active = stage === "loading" || stage === "ready";

  useEffect(() => {
    const host = hostRef.current;
    if (!active || !host) return;
    const controller = new AbortController();
    let dispose: (() => void) | undefined;
    mountScene(host, url, controller.signal).then(
      (scene) => {
        if (controller.signal.aborted) return scene.dispose();
        dispose = scene.dispose;
        setStage("ready");
        setMeta((current) => ({
          ...current,
          detail: `${scene.triangles.toLocaleString("en-US")} triangles`,
        }));
      },
      () => {
        if (controller.signal.aborted) return;
        setStage("error");
        setMeta((current) => ({ ...current, error: META_ERRORS.model }));
      },
    );
    return () => {
      controller.abort();
      dispose?.();
    };
  }, [active, url]);

  const text = meta.error ?? (describeMeta(meta) || META_ERRORS.model);
  return (
    <figure className="media-viewer">
      <div className="media-stage">
        {still && stage !== "ready" ? (
          <img src={still} alt="3D model snapshot" loading="lazy" decoding="async" />
        ) : null}
        {active ? (
          <div
            ref={hostRef}
            className="media-3d nodrag nowheel nopan"
            title="Drag to orbit, scroll to zoom"
          />
        ) : null}
        {stage === "ready" ? null : (
          <button
            type="button"
            className="media-stage-action nodrag"
            disabled={stage === "loading"}
            onClick={() => {
              setMeta((current) => ({ ...current, error: undefined }));
              setStage("loading");
            }}
          >
            {stage === "loading" ? "Loading 3D…" : "View in 3D"}
          </button>
        )}
      </div>
      <figcaption className="media-meta">
        <span className={meta.error || text === META_ERRORS.model ? "media-error" : undefined}>
          {text}
        </span>
        <DownloadLink url={url} kind="model" />
      </figcaption>
    </figure>
  );
}

export default ModelViewer;
