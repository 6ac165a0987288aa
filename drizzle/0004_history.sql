-- placeholder: filled by the history work; hand-written until the migrations are regenerated together
select 1;
