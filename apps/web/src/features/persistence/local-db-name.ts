/** The name of this browser's IndexedDB database, known without loading its code. */
export const LOCAL_DB_NAME = "atelier";
