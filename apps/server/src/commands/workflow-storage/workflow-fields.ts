/** The row fields a create or save sets besides the document. */
export interface WorkflowFields {
  name: string;
  description?: string | undefined;
  folderId?: string | null | undefined;
  isPublic?: boolean | undefined;
  thumbnailUrl?: string | null | undefined;
  mediaRefs?: string[] | undefined;
}
