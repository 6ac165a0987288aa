-- placeholder: filled by the calendar_feeds work; hand-written until the migrations are regenerated together
select 1;
