-- placeholder: filled by the reminders work; hand-written until the migrations are regenerated together
select 1;
