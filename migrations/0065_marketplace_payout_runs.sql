CREATE TABLE "marketplace_payout_runs" (
	"period_start" timestamp with time zone PRIMARY KEY NOT NULL,
	"owner" text NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"attempts" integer DEFAULT 1 NOT NULL,
	"transferred" integer DEFAULT 0 NOT NULL,
	"reversed" integer DEFAULT 0 NOT NULL,
	"waiting" integer DEFAULT 0 NOT NULL
);
