CREATE TABLE "sign_in_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"last_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_in_places" (
	"email" text NOT NULL,
	"address" text NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sign_in_places_email_address_pk" PRIMARY KEY("email","address")
);
--> statement-breakpoint
CREATE INDEX "sign_in_failures_last_at_idx" ON "sign_in_failures" USING btree ("last_at");--> statement-breakpoint
CREATE INDEX "sign_in_places_last_at_idx" ON "sign_in_places" USING btree ("last_at");