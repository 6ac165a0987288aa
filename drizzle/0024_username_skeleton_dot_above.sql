-- A dot above i or j now counts for nothing in a username's skeleton (the look-alike key). Skeletons
-- that hold one are cleared here; the start after the migrations computes them again
-- (reconcileUsernameKeys), so an account named with "i" + U+0307 is found to look like one without.
UPDATE "users" SET "username_skeleton" = NULL WHERE "username_skeleton" LIKE '%' || U&'\0307' || '%';
