// Types of occfm.js (see docs/js-api.md and docs/embed.md). Every exported
// name, method and option has a doc comment: TestLibTypesDocumented checks.

/** A registry learner's name (`learners()` lists them with what they do). */
export type LearnerName =
	| "bias" | "ccfm-ftrl" | "ccfm-ogd" | "ccfm-pa" | "ccfm-pairs" | "cfm-ftrl" | "fm-ftrl" | "item-lift"
	| "linear" | "mean" | "occfm" | "occfm-auto" | "occfm-k" | "occfm-lin";

/** What a learner predicts: a number (regression) or the probability of the positive class (classification). */
export type Task = "regression" | "classification";

/** A row's features by name: a number, a string (one-hot: name=value) or a boolean (true: 1; false and undefined: left out). */
export type Features = { [name: string]: number | string | boolean | undefined };

/**
 * The features of an object type X, for rows typed by an interface of your own (`interface Impression
 * {device: string; hour: number}`): each field a number, a string or a boolean.
 */
export type FeaturesOf<X> = { [K in keyof X]: number | string | boolean | undefined };

/** A row to learn: y is a number (regression) or 0/1, −1/1 or a boolean (classification). */
export interface Row<X extends FeaturesOf<X> = Features> {
	/** The features by name. */
	x: X;
	/** The label. */
	y: number | boolean;
}

/** Where the library's files are, when not beside occfm.js (a bundler, a CDN). */
export interface Location {
	/** The URL of occfm.wasm (default: beside occfm.js). A thread loads the wasm once, from the first URL given. */
	wasmURL?: string | URL;
	/** The URL of occfm-worker.js for `worker: true` (default: beside occfm.js; another origin's is started through a module of the page's). */
	workerURL?: string | URL;
}

/** The settings of Learner.create; every one optional. */
export interface Settings<T extends Task = Task> extends Location {
	/** The registry name; default "occfm-k", the one learners() marks defaultFor.learner. */
	learner?: LearnerName;
	/** The task; default "regression". */
	task?: T;
	/** The bound δ on ‖C‖*, a finite number ≥ 0; 0 or absent: the learner's default. */
	delta?: number;
	/** The step η, a finite number ≥ 0; 0 or absent: the learner's default. */
	eta?: number;
	/** The seed of the learner's random choices, a whole number ≥ 0; default 1. */
	seed?: number;
	/** The memory budget in bytes of the learner, its metrics and its names, a whole number; 0 or absent: 512 MiB. A learn whose new features cannot fit it is refused whole, before a row is learned; one that passes it as it learns stops there, naming the rows learned. Either Error names the memory. */
	maxMemory?: number;
	/** Run it in the module's Worker (shared by every such object of the page): the page never waits on it. Default: true on a page, false in a Worker. */
	worker?: boolean;
}

/** The settings of Learner.load. */
export interface LoadSettings extends Location {
	/** Run it in the module's Worker. */
	worker?: boolean;
}

/** The progressive metrics of a regression learner over every row learned (each predicted before it was learned). */
export interface RegressionMetrics {
	/** Rows learned. */
	rows: number;
	/** Root mean squared error. */
	rmse: number;
	/** Mean absolute error. */
	mae: number;
	/** Absent for regression. */
	errorRate?: undefined;
	/** Absent for regression. */
	logLoss?: undefined;
	/** Absent for regression. */
	auc?: undefined;
}

/** The progressive metrics of a classifier over every row learned (each predicted before it was learned). */
export interface ClassificationMetrics {
	/** Rows learned. */
	rows: number;
	/** The share of rows on the wrong side of ½. */
	errorRate: number;
	/** The mean log loss (natural log). */
	logLoss: number;
	/** The area under the ROC curve. */
	auc: number;
	/** Absent for classification. */
	rmse?: undefined;
	/** Absent for classification. */
	mae?: undefined;
}

/** The metrics of the task T. */
export type MetricsOf<T extends Task> = T extends "classification" ? ClassificationMetrics : T extends "regression" ? RegressionMetrics : Metrics;

/** The metrics of either task. */
export type Metrics = RegressionMetrics | ClassificationMetrics;

/** Where a long learn is: rows learned of this call's `of`, and the metrics so far. */
export interface Progress<M> {
	/** Rows of this call learned. */
	rows: number;
	/** Rows in this call. */
	of: number;
	/** The metrics over every row the object learned. */
	metrics: M;
}

/** The options of a learn. */
export interface LearnOptions<M> {
	/** Called after each part of the rows (parts of about 25 ms on this thread). */
	onProgress?: (p: Progress<M>) => void;
	/** Stops the learn before its next part; the rejection names the rows learned. */
	signal?: AbortSignal;
}

/**
 * A data file as the CLI reads it: CSV with a header (the label a column named like y, label or rating),
 * LibSVM, or MovieLens ratings; gzip is undone. At most 256 MB, read whole.
 */
export type DataFile = Uint8Array | ArrayBuffer | Blob | ReadableStream<Uint8Array>;

/** The options of a call that reads a data file. */
export interface FileOptions {
	/** The file's name in error messages ("data" if absent). */
	name?: string;
}

/** A registry learner, as learners() gives it. */
export interface LearnerInfo {
	/** Its registry name. */
	name: LearnerName;
	/** What it does, in a sentence a student understands. */
	plain: string;
	/** What it is, in a technical line with its reference. */
	summary: string;
	/** The tasks it learns. */
	tasks: Task[];
	/** The settings it takes beyond the task and the seed (null: not taken), with their defaults. */
	settings: {
		/** δ: its default (0: none fixed) and, when δ grows with the data, the rule. */
		delta: { default: number; rule: string } | null;
		/** η: its default for each task. */
		eta: { regression: number; classification: number } | null;
	};
	/** Whether create makes it when no learner is named: Learner.create's default, Recommender.create's (Personalize's). */
	defaultFor: {
		/** Learner.create's default. */
		learner: boolean;
		/** Recommender.create's default. */
		recommender: boolean;
	};
	/** What it can do beside predicting. */
	abilities: {
		/** It learns pairs of features (C's pair block), which the page's picture shows. */
		pairs: boolean;
		/** It keeps C in the nuclear-norm ball ‖C‖* ≤ δ. */
		ball: boolean;
		/** It has a sub-linear regret guarantee that the page certifies. */
		regret: boolean;
		/** It is a mixture of experts. */
		mixture: boolean;
	};
}

/** The registry: every learner, with its tasks, settings and abilities. */
export function learners(settings?: { wasmURL?: string | URL }): Promise<LearnerInfo[]>;

/** A learner of its own: any number may live in one page or Worker. */
export class Learner<T extends Task = Task> {
	/** The registry name of the learner. */
	readonly learner: LearnerName;
	/** What it predicts. */
	readonly task: T;
	/** Makes a learner; rejects on a bad setting, naming it. */
	static create<T extends Task = "regression">(settings?: Settings<T>): Promise<Learner<T>>;
	/** Makes a learner from a model file that save (or the CLI, on a CSV file) wrote. */
	static load(bytes: Uint8Array | ArrayBuffer, settings?: LoadSettings): Promise<Learner>;
	/** Learns rows in order, all or none (every row is checked first), or a data file; resolves with the progressive metrics. */
	learn<X extends FeaturesOf<X>>(rows: Row<X>[] | DataFile, options?: LearnOptions<MetricsOf<T>> & FileOptions): Promise<MetricsOf<T>>;
	/** ŷ for a row without learning it: a rating, or the probability of the positive class; answered between the parts of a learn under way. */
	predict<X extends FeaturesOf<X>>(row: { x: X }): Promise<number>;
	/** ŷ for each row, or for each row of a data file (its labels left out). */
	predictMany<X extends FeaturesOf<X>>(rows: { x: X }[] | DataFile, options?: FileOptions): Promise<number[]>;
	/** The model file: the learner, its guard and its feature names. */
	save(): Promise<Uint8Array>;
	/** Forgets the learner once the calls made before settle; every later call rejects. */
	close(): void;
}

/** An item of the catalog: tags are its genres, categories or labels. */
export interface Item {
	/** Its id. */
	id: string | number;
	/** Its title, for the reasons. */
	title?: string;
	/** Its tags. */
	tags?: string[];
}

/** One person's rating of one item, usually 1 to 5 stars. */
export interface Rating {
	/** The person. */
	user: string | number;
	/** The item. */
	item: string | number;
	/** The stars. */
	rating: number;
}

/** A recommended item: score is the predicted stars (1 to 5), reasons say why in words. */
export interface Recommendation {
	/** The item's id. */
	id: string;
	/** Its title. */
	title: string;
	/** The predicted stars, on the ratings' scale. */
	score: number;
	/** What the list is ranked by, highest first: the learner's own score (item-lift's match, with the visitor's tag taste) or, for a learner that ranks by its prediction, the predicted stars unclipped. */
	rank: number;
	/** Why, in words. */
	reasons: string[];
}

/** The settings of Recommender.create; every one optional. */
export interface RecommenderSettings extends Location {
	/** A registry name; default Personalize's learner ("item-lift"), the one learners() marks defaultFor.recommender. */
	learner?: LearnerName;
	/** The seed, a whole number ≥ 0. */
	seed?: number;
	/** Run it in the module's Worker. */
	worker?: boolean;
}

/** A recommender's progressive metrics. */
export interface RecommenderMetrics {
	/** Ratings learned. */
	rows: number;
	/** Root mean squared error of the stars. */
	rmse: number;
	/** The rating scale of the ratings learned, which rate takes: their lowest and highest and their step (1: whole stars, 0.5: half stars, 0: any number between); 1 to 5 whole stars before any. */
	scale: RatingScale;
}

/** A rating scale: a rating is lo + a whole number of steps, at most hi (any number in [lo, hi] when step is 0). */
export interface RatingScale {
	/** The lowest rating. */
	lo: number;
	/** The highest rating. */
	hi: number;
	/** 1 (whole stars), 0.5 (half stars) or 0 (any number). */
	step: number;
}

/** An item of a Recommender's catalog, as catalog() lists it. */
export interface CatalogItem {
	/** Its id. */
	id: string;
	/** Its title: the one given, else its id; "item ID" for an item of the ratings that no item given names. */
	title: string;
	/** Its tags (an item list's genres). */
	tags: string[];
	/** The ratings of it learned. */
	count: number;
	/** Their mean (0 with none). */
	mean: number;
	/** Whether the model knows it (people's ratings named it): only such an item can be rated and recommended. */
	known: boolean;
}

/** A Recommender's catalog, as catalog() gives it. */
export interface Catalog {
	/** The items given, in the order given, then those of the ratings that none of them names. */
	items: CatalogItem[];
	/** How many items were given: the first listed of items. */
	listed: number;
	/** The ratings' scale, which rate takes, with its words ("1 to 5 in whole stars"). */
	scale: RatingScale & {
		/** The scale in words. */
		text: string;
	};
	/** What a Recommendation's rank is: "match", the learner's own score (item-lift's, with the visitor's tag taste), or "stars", the predicted stars unclipped. */
	rankedBy: "match" | "stars";
}

/** One of the visitor's ratings, as rated() lists them. */
export interface VisitorRating {
	/** The item's id. */
	id: string;
	/** The stars given. */
	stars: number;
	/** The stars the model expected of the visitor for the item just before, on the scale. */
	before: number;
}

/** A recommender over a catalog of your own: people's ratings learned, a visitor's top n. */
export class Recommender {
	/** The registry name of the learner. */
	readonly learner: LearnerName;
	/** Makes a recommender. */
	static create(settings?: RecommenderSettings): Promise<Recommender>;
	/**
	 * Adds the items, or those of a MovieLens item list file (u.item, movies.dat or movies.csv; gzip or not),
	 * their genres as tags; resolves with the number of items. A malformed line rejects, naming the file, the
	 * line and the field, and adds none.
	 */
	items(items: Item[] | DataFile, options?: FileOptions): Promise<number>;
	/**
	 * Learns people's ratings in order, all or none; or a MovieLens ratings file (u.data, ratings.dat or
	 * ratings.csv; gzip or not) to its end, in parts (onProgress's of: the rows the file holds at the pace so
	 * far), all or none, into a Recommender that has learned no rating: a malformed row rejects, naming the
	 * file, the line and the field, and so does a file none of whose items the items given name.
	 */
	learn(ratings: Rating[] | DataFile, options?: LearnOptions<RecommenderMetrics> & FileOptions): Promise<RecommenderMetrics>;
	/**
	 * Learns the synthetic catalog Personalize starts with (films with genres, rated by made-up people; the
	 * Recommender's seed draws it) into a Recommender that has neither ratings nor items, in parts, with its items.
	 */
	learnSynthetic(options?: LearnOptions<RecommenderMetrics>): Promise<RecommenderMetrics>;
	/** The catalog: its items with their ratings' count and mean, the ratings' scale, what the top lists are ranked by. */
	catalog(): Promise<Catalog>;
	/** The visitor gives item stars, a rating of the scale learn reported (RecommenderMetrics.scale); one off it rejects with an Error naming the scale. Resolves with the new top n (default 10). */
	rate(item: string | number, stars: number, n?: number): Promise<Recommendation[]>;
	/** The visitor's top n (default 10), best first. */
	top(n?: number): Promise<Recommendation[]>;
	/** The visitor's ratings, in the order first given. */
	rated(): Promise<VisitorRating[]>;
	/** The visitor's ratings as CSV: the header "item_id,title,stars" and a line per rating. */
	ratingsCSV(): Promise<string>;
	/** Forgets the visitor's ratings. */
	clear(): Promise<void>;
	/** Forgets the recommender once the calls made before settle; every later call rejects. */
	close(): void;
}
