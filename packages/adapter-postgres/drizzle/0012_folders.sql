CREATE TABLE "folder_members" (
	"folder_id" integer NOT NULL,
	"element_id" integer NOT NULL,
	CONSTRAINT "folder_members_folder_id_element_id_pk" PRIMARY KEY("folder_id","element_id")
);
--> statement-breakpoint
CREATE INDEX "folder_members_element_idx" ON "folder_members" USING btree ("element_id","folder_id");