// The shape of a unit definition, in a leaf module: a root's spec carries targets and the target functions read
// a root's spec, so the type lives apart from both.
import type { RecipeId, UnitShape } from "@/lib/catalog/recipes";
import type { SessionParts } from "@/lib/catalog/recipe-data/session-parts";

/** A unit definition: a built-in recipe's, or a custom rule's (id "custom"). */
export type Target = { id: RecipeId | "custom"; unit: UnitShape; glob: string; parts?: SessionParts };
