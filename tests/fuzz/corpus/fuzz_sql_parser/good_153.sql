SELECT 'multi
line'