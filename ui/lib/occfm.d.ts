// Types of occfm.js (see docs/js-api.md and docs/embed.md).

/** A row's features by name: a number, a string (one-hot: name=value) or a boolean (true: 1). */
export type Features = { [name: string]: number | string | boolean };

/** A row to learn: y is a number (regression) or 0/1, -1/1 or a boolean (classification). */
export interface Row { x: Features; y: number | boolean }

export interface Settings {
	/** A registry name (see learners()); default "occfm-k". */
	learner?: string;
	/** Default "regression". */
	task?: "regression" | "classification";
	/** The bound δ on ‖C‖*; 0 or absent: the learner's default. */
	delta?: number;
	/** The step η; 0 or absent: the learner's default. */
	eta?: number;
	seed?: number;
	/** Run it in a module Worker (shared by every such object of the page): the page never waits on it. */
	worker?: boolean;
}

/** The progressive metrics of every row learned so far (each predicted before it was learned). */
export interface Metrics {
	rows: number;
	rmse?: number;
	mae?: number;
	errorRate?: number;
	logLoss?: number;
	auc?: number;
}

/** Where a long learn is: rows learned of this call's `of`, and the metrics so far. */
export interface Progress<M> { rows: number; of: number; metrics: M }

export interface LearnOptions<M> {
	/** Called after each part of the rows (parts of about 25 ms on this thread). */
	onProgress?: (p: Progress<M>) => void;
}

/**
 * A data file as the CLI reads it: CSV with a header (the label a column named like y, label or rating),
 * LibSVM, or MovieLens ratings; gzip is undone. At most 256 MB, read whole.
 */
export type DataFile = Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array>;

export interface FileOptions {
	/** The file's name in error messages ("data" if absent). */
	name?: string;
}

export interface LearnerInfo { name: string; plain: string; summary: string }

export function learners(): Promise<LearnerInfo[]>;

export class Learner {
	readonly learner: string;
	readonly task: "regression" | "classification";
	static create(settings?: Settings): Promise<Learner>;
	static load(bytes: Uint8Array, settings?: { worker?: boolean }): Promise<Learner>;
	learn(rows: Row[] | DataFile, options?: LearnOptions<Metrics> & FileOptions): Promise<Metrics>;
	predict(row: { x: Features }): Promise<number>;
	predictMany(rows: { x: Features }[] | DataFile, options?: FileOptions): Promise<number[]>;
	save(): Promise<Uint8Array>;
	close(): void;
}

/** An item of the catalog: tags are its genres, categories or labels. */
export interface Item { id: string | number; title?: string; tags?: string[] }

/** One person's rating of one item, usually 1 to 5 stars. */
export interface Rating { user: string | number; item: string | number; rating: number }

/** A recommended item: score is the predicted stars (1 to 5), reasons say why in words. */
export interface Recommendation { id: string; title: string; score: number; reasons: string[] }

export interface RecommenderSettings {
	/** A registry name; default Personalize's learner ("item-lift"). */
	learner?: string;
	seed?: number;
	worker?: boolean;
}

export interface RecommenderMetrics { rows: number; rmse: number }

export class Recommender {
	readonly learner: string;
	static create(settings?: RecommenderSettings): Promise<Recommender>;
	items(items: Item[]): Promise<number>;
	learn(ratings: Rating[], options?: LearnOptions<RecommenderMetrics>): Promise<RecommenderMetrics>;
	rate(item: string | number, stars: number, n?: number): Promise<Recommendation[]>;
	top(n?: number): Promise<Recommendation[]>;
	clear(): Promise<void>;
	close(): void;
}
