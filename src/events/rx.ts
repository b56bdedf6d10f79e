/*
 * The parts of rxjs the product uses, each from its own file. Under Node, `import … from 'rxjs'`
 * loads the CommonJS build's index, which requires every operator rxjs has (~400 files, about a
 * tenth of a second of CPU on every `intentlog` start, hooks and stdio servers included); these
 * paths load only what is named here. They are in rxjs's export map (`./internal/*`) with types.
 * Values come from here; types may still be imported from 'rxjs' (erased at build).
 */
export { BehaviorSubject } from 'rxjs/internal/BehaviorSubject';
export { firstValueFrom } from 'rxjs/internal/firstValueFrom';
export { NEVER } from 'rxjs/internal/observable/never';
export { Observable } from 'rxjs/internal/Observable';
export { filter } from 'rxjs/internal/operators/filter';
export { map } from 'rxjs/internal/operators/map';
export { merge } from 'rxjs/internal/observable/merge';
export { timeout } from 'rxjs/internal/operators/timeout';
export { Subject } from 'rxjs/internal/Subject';
