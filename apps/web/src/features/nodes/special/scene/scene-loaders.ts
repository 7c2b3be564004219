import * as THREE from "three";
import type { GLTFLoader } from "three/addons/loaders/GLTFLoader.js";
import { disposeMeshes } from "../../viewers/dispose-three.ts";
import { BLOCKED_MEDIA, mediaSrc } from "../../viewers/safe-url.ts";

/**
 * What the scene shows for each kind of wired media. Every item is normalised to about one
 * unit tall, centred on x/z and standing on y = 0, so placements mean the same thing for a
 * tiny model, a huge one and a photo.
 */

/** An address the allow-list refused: never fetched, and the item says so. */
export class BlockedMediaError extends Error {
  constructor() {
    super(BLOCKED_MEDIA);
  }
}

/** The address a loader may fetch; wired media is workflow data, so it is checked first. */
function checked(url: string, kind: "model" | "image"): string {
  const src = mediaSrc(url, kind);
  if (!src) throw new BlockedMediaError();
  return src;
}

/** A GLB, scaled to fit a one-unit box and stood on the ground. */
export async function loadModel(url: string, loader: GLTFLoader): Promise<THREE.Object3D> {
  const gltf = await loader.loadAsync(checked(url, "model"));
  const model = gltf.scene;
  const box = new THREE.Box3().setFromObject(model);
  const size = box.getSize(new THREE.Vector3());
  const scale = 1 / (Math.max(size.x, size.y, size.z) || 1);
  const center = box.getCenter(new THREE.Vector3());
  model.position.set(-center.x * scale, -box.min.y * scale, -center.z * scale);
  model.scale.setScalar(scale);
  const holder = new THREE.Group();
  holder.add(model);
  return holder;
}

/** An image as an upright, unlit plane one unit tall with the image's aspect ratio. */
export async function loadImagePlane(
  url: string,
  loader: THREE.TextureLoader,
): Promise<THREE.Object3D> {
  const texture = await loader.loadAsync(checked(url, "image"));
  texture.colorSpace = THREE.SRGBColorSpace;
  const image = texture.image as { width?: number; height?: number } | undefined;
  const aspect = image?.width && image.height ? image.width / image.height : 1;
  const plane = new THREE.Mesh(
    new THREE.PlaneGeometry(aspect, 1),
    // Unlit and not tone mapped: the picture keeps its own colours.
    new THREE.MeshBasicMaterial({ map: texture, side: THREE.DoubleSide, toneMapped: false }),
  );
  plane.position.y = 0.5;
  return plane;
}

/** A wireframe box standing in for an item until it has loaded (and when it cannot). */
export function placeholder(): THREE.Object3D {
  const box = new THREE.Mesh(
    new THREE.BoxGeometry(0.8, 0.8, 0.8),
    new THREE.MeshBasicMaterial({ color: 0x6b6b78, wireframe: true }),
  );
  box.position.y = 0.4;
  return box;
}

/** Frees the GPU memory of everything under `object` (geometries, materials, textures). */
export function disposeObject(object: THREE.Object3D): void {
  disposeMeshes(object);
  object.removeFromParent();
}
