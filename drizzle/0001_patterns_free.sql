-- placeholder: filled by the patterns_free work; hand-written until the migrations are regenerated together
select 1;
