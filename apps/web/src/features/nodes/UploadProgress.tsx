import { memo } from "react";

/**
 * The upload bar of a node receiving a dropped file (`data.uploadProgress`, 0–100); nothing
 * when the node is not uploading.
 */
export const UploadProgress = memo(function UploadProgress({ progress }: { progress: unknown }) {
  if (typeof progress !== "number" || !Number.isFinite(progress)) return null;
  const value = Math.max(0, Math.min(100, Math.round(progress)));
  return (
    <div className="upload-progress nodrag" data-testid="upload-progress">
      <span className="upload-progress-text">Uploading · {value} %</span>
      <progress max={100} value={value} aria-label="Upload progress" style={{ width: "100%" }} />
    </div>
  );
});
