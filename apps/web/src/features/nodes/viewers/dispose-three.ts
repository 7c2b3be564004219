import type { Material, Mesh, Object3D, Texture } from "three";

/** Frees the GPU memory of an object's meshes: geometries, materials and their textures. */
export function disposeMeshes(object: Object3D): void {
  object.traverse((child) => {
    const mesh = child as Mesh;
    if (!mesh.isMesh) return;
    mesh.geometry.dispose();
    for (const material of [mesh.material].flat() as Material[]) {
      for (const value of Object.values(material)) {
        if ((value as Texture | null)?.isTexture) (value as Texture).dispose();
      }
      material.dispose();
    }
  });
}
