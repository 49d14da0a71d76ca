// The document reading layer: page count, page selection, words with positions (file kind: src/shared/file-kind.ts).
export { countPages } from './count-pages.js';
export { parsePageRanges } from './page-ranges.js';
export { readDocument, readPages } from './read-pages.js';
export { writeSelectedPages } from './select-pages.js';
export { closeReaders, configureReaders, type ReaderPoolOptions } from './reader-pools.js';
