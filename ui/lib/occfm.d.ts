// Types of occfm.js (see docs/js-api.md).

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
}

/** The progressive metrics of every row learned so far. */
export interface Metrics {
	rows: number;
	rmse?: number;
	mae?: number;
	errorRate?: number;
	logLoss?: number;
	auc?: number;
}

export interface LearnerInfo { name: string; plain: string; summary: string }

export function learners(): Promise<LearnerInfo[]>;

export class Learner {
	readonly learner: string;
	readonly task: "regression" | "classification";
	static create(settings?: Settings): Promise<Learner>;
	static load(bytes: Uint8Array): Promise<Learner>;
	learn(rows: Row[]): Promise<Metrics>;
	predict(row: { x: Features }): Promise<number>;
	predictMany(rows: { x: Features }[]): Promise<number[]>;
	save(): Promise<Uint8Array>;
	close(): void;
}
